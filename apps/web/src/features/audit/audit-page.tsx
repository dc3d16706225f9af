import { useCallback, useMemo, useState } from 'react';
import { Box, Button, Center, Group, Loader, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTimestamp, type AuditEntry } from '@gatehouse/shared';
import { DataTable, pagingProps, useListUrlState, usePagedList } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { RefreshButton } from '../../components/refresh-button';
import { AuditCards } from './audit-cards';
import { AuditFilterForm } from './audit-filter-form';
import { emptyAuditFilters, toAuditQueryParams, type AuditFilters } from './audit-filters';
import { auditKeys, listAuditEntries } from './audit-queries';
import { useAuditColumns } from './audit-table';

/** Who changed what, for admins: a table on wide screens, cards on a phone; a row opens to its changes. */
export default function AuditPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const urlState = useListUrlState();
  const [filters, setFilters] = useState<AuditFilters>(emptyAuditFilters);
  const params = useMemo(() => toAuditQueryParams(filters), [filters]);
  const [expandedIds, setExpandedIds] = useState<ReadonlySet<number>>(new Set());

  const list = usePagedList({
    queryKey: auditKeys.list(params),
    fetchPage: (page, signal) => listAuditEntries(params, page, signal),
    keyword: '',
  });
  const isExpanded = useCallback((entry: AuditEntry) => expandedIds.has(entry.id), [expandedIds]);
  const columns = useAuditColumns(isExpanded);
  const toggle = (entry: AuditEntry) =>
    setExpandedIds((current) => {
      const next = new Set(current);
      if (!next.delete(entry.id)) next.add(entry.id);
      return next;
    });

  const apply = (next: AuditFilters) => {
    setFilters(next);
    urlState.setPage(1);
  };
  const refresh = (
    <RefreshButton
      label={t('audit.refresh')}
      onRefresh={() => queryClient.invalidateQueries({ queryKey: auditKeys.all })}
      isRefreshing={list.isFetching && !list.isLoading}
    />
  );

  return (
    <>
      <PageTitle title={t('audit.title')} description={t('audit.description')} />
      <AuditFilterForm onApply={apply} />
      <Box visibleFrom="sm">
        <DataTable
          columns={columns}
          {...pagingProps(list, urlState)}
          rowKey={(entry) => entry.id}
          onRowClick={toggle}
          rowLabel={(entry) => t('audit.open', { time: formatTimestamp(entry.created_at) })}
          emptyText={t('audit.empty')}
          footer={refresh}
        />
      </Box>
      <Box hiddenFrom="sm">
        {list.isLoading ? (
          <Center py="lg">
            <Loader size="sm" />
          </Center>
        ) : list.rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {t('audit.empty')}
          </Text>
        ) : (
          <AuditCards entries={list.rows} />
        )}
        <Group gap="sm" mt="md">
          {refresh}
          {list.hasMore && (
            <Button variant="light" onClick={list.loadMore} loading={list.isFetching && !list.isLoading}>
              {t('audit.loadMore')}
            </Button>
          )}
        </Group>
      </Box>
    </>
  );
}
