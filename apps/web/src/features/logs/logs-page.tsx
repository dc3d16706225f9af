import { useMemo, useRef, useState } from 'react';
import { Badge, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatLogQuota, formatTimestamp, isAdminRole, type Log } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { useStatus } from '../../api/status';
import { showSuccess } from '../../api/toast';
import { DataTable, useListUrlState, usePagedList, pagingProps } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { downloadFromUrl } from '../redemptions/download-text-file';
import { useQuotaDisplay } from '../users/use-quota-display';
import { LogDetailDrawer } from './log-detail-drawer';
import { LogFilterForm } from './log-filter-form';
import { defaultLogFilters, toLogQueryParams, type LogFilters } from './log-filters';
import { listLogs, logExportUrl, logKeys, logStatQueryOptions, type LogCursors } from './logs-queries';
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

  const exportCsv = (exportFilters: LogFilters) => {
    const url = logExportUrl(isAdmin, toLogQueryParams(exportFilters, isAdmin));
    downloadFromUrl(url);
    showSuccess(t('logs.exportStarted'));
  };

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
      <LogFilterForm initialFilters={initialFilters} isAdmin={isAdmin} onApply={apply} onExport={exportCsv} />
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
