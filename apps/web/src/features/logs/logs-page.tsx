import { useMemo, useRef, useState } from 'react';
import { Badge, Group } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  badgeFor,
  formatLogQuota,
  formatTimestamp,
  isAdminRole,
  logTypeBadges,
  type Log,
} from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { useStatus } from '../../api/status';
import { showSuccess } from '../../api/toast';
import { DataTable, useListUrlState, usePagedList, pagingProps } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { downloadTextFile } from '../redemptions/download-text-file';
import { useQuotaDisplay } from '../users/use-quota-display';
import { LogDetailDrawer } from './log-detail-drawer';
import { LogFilterForm } from './log-filter-form';
import { defaultLogFilters, toLogQueryParams, type LogFilters } from './log-filters';
import { buildLogsCsv, logCsvHeaders } from './logs-csv';
import { listLogs, listLogsForExport, logKeys, logStatQueryOptions, type LogCursors } from './logs-queries';
import { useLogColumns } from './logs-table';

export default function LogsPage() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const isAdmin = isAdminRole(user?.role ?? 0);
  const status = useStatus();
  const quotaDisplay = useQuotaDisplay();
  const urlState = useListUrlState();
  const [initialFilters] = useState(() => defaultLogFilters());
  const [filters, setFilters] = useState(initialFilters);
  const [shownLog, setShownLog] = useState<Log | null>(null);
  const params = useMemo(() => toLogQueryParams(filters, isAdmin), [filters, isAdmin]);
  const cursors = useRef<LogCursors>(new Map());

  const list = usePagedList({
    queryKey: logKeys.list(isAdmin, params),
    fetchPage: (page, signal) => listLogs(isAdmin, params, page, cursors.current, signal),
    keyword: '',
  });
  const stat = useQuery(logStatQueryOptions(isAdmin, params, status?.display_token_stat ?? false));
  const columns = useLogColumns(isAdmin, quotaDisplay);

  const exportCsv = useMutation({
    mutationFn: async (exportFilters: LogFilters) => {
      const logs = await listLogsForExport(isAdmin, toLogQueryParams(exportFilters, isAdmin));
      const csv = buildLogsCsv(logs, {
        headers: logCsvHeaders(isAdmin).map((header) => t(`logs.csv.${header}`)),
        typeLabel: (type) => t(badgeFor(logTypeBadges, type).label),
        quotaDisplay,
        isAdmin,
      });
      downloadTextFile(`logs-${dayjs().format('YYYYMMDD-HHmmss')}.csv`, csv, 'text/csv;charset=utf-8');
      return logs.length;
    },
    onSuccess: (count) => showSuccess(t('logs.exported', { count })),
  });

  const apply = (next: LogFilters) => {
    setFilters(next);
    urlState.setPage(1);
  };

  return (
    <>
      <PageTitle
        title={t('logs.title')}
        actions={
          stat.data && (
            <Group gap="xs">
              <Badge size="lg" variant="light" color="teal" tt="none" data-testid="log-stat">
                {t('logs.usedQuota', { amount: formatLogQuota(stat.data.quota, quotaDisplay) })}
              </Badge>
            </Group>
          )
        }
      />
      <LogFilterForm
        initialFilters={initialFilters}
        isAdmin={isAdmin}
        onApply={apply}
        onExport={(exportFilters) => exportCsv.mutate(exportFilters)}
        isExporting={exportCsv.isPending}
      />
      <DataTable
        columns={columns}
        {...pagingProps(list, urlState)}
        rowKey={(log) => log.id}
        onRowClick={setShownLog}
        rowLabel={(log) => t('logs.detail.open', { time: formatTimestamp(log.created_at) })}
        emptyText={t('logs.empty')}
      />
      <LogDetailDrawer
        log={shownLog}
        isAdmin={isAdmin}
        quotaDisplay={quotaDisplay}
        onClose={() => setShownLog(null)}
      />
    </>
  );
}
