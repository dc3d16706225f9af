import { useState } from 'react';
import { Badge, Button, Checkbox, Group, List, Stack, Table, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OneApiImportReport, OneApiImportRequest } from '@gatehouse/shared';
import { api } from '../../api/client';
import { showError, showSuccess } from '../../api/toast';
import { SettingsSection } from './settings-section';

const runImport = (request: OneApiImportRequest) =>
  api.post<OneApiImportReport>('/api/option/import-one-api', request, { quiet: true });

/**
 * Root's import of a one-api/new-api database: a dry run shows the report, and only a dry run of the same
 * source unlocks the import. The server opens the source; the report carries counts and reasons, no secret.
 */
export function OneApiImport() {
  const { t } = useTranslation();
  const [from, setFrom] = useState('');
  const [withLogs, setWithLogs] = useState(false);
  const [report, setReport] = useState<OneApiImportReport | null>(null);
  const [checked, setChecked] = useState<string | null>(null);
  const sourceKey = `${from.trim()}\n${withLogs}`;

  const mutation = useMutation({
    mutationFn: runImport,
    onSuccess: (answer, request) => {
      setReport(answer);
      if (request.dry_run) setChecked(`${request.from}\n${Boolean(request.with_logs)}`);
      else {
        setChecked(null);
        showSuccess(t('settings.system.oneApiImport.done'));
      }
    },
    onError: (error) => showError(t('settings.system.oneApiImport.failed', { message: error.message })),
  });

  const dryRun = () => mutation.mutate({ from: from.trim(), dry_run: true, with_logs: withLogs });
  const confirmImport = () =>
    modals.openConfirmModal({
      title: t('settings.system.oneApiImport.import'),
      children: (
        <Text size="sm">{t('settings.system.oneApiImport.confirm', { product: report?.product ?? '' })}</Text>
      ),
      labels: { confirm: t('settings.confirm'), cancel: t('settings.cancel') },
      onConfirm: () => mutation.mutate({ from: from.trim(), dry_run: false, with_logs: withLogs }),
    });

  const canImport = checked === sourceKey && report?.dryRun === true;
  return (
    <SettingsSection
      title={t('settings.system.oneApiImport.title')}
      description={t('settings.system.oneApiImport.description')}
    >
      <TextInput
        label={t('settings.system.oneApiImport.from')}
        description={t('settings.system.oneApiImport.fromHint')}
        placeholder="postgres://user:password@host:5432/oneapi"
        value={from}
        onChange={(event) => setFrom(event.currentTarget.value)}
        autoComplete="off"
      />
      <Checkbox
        label={t('settings.system.oneApiImport.withLogs')}
        checked={withLogs}
        onChange={(event) => setWithLogs(event.currentTarget.checked)}
      />
      <Group gap="sm">
        <Button variant="light" onClick={dryRun} loading={mutation.isPending} disabled={from.trim() === ''}>
          {t('settings.system.oneApiImport.dryRun')}
        </Button>
        <Button color="red" onClick={confirmImport} disabled={!canImport || mutation.isPending}>
          {t('settings.system.oneApiImport.import')}
        </Button>
      </Group>
      {!canImport && report?.dryRun !== true && from.trim() !== '' && (
        <Text size="xs" c="dimmed">
          {t('settings.system.oneApiImport.needDryRun')}
        </Text>
      )}
      {report && <ImportReportView report={report} />}
    </SettingsSection>
  );
}

function ImportReportView({ report }: { report: OneApiImportReport }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="one-api-import-report">
      <Group gap="xs">
        <Text fw={500}>
          {t('settings.system.oneApiImport.reportTitle', {
            product: report.product,
            version: report.version,
          })}
        </Text>
        <Badge color={report.dryRun ? 'blue' : 'green'} variant="light">
          {report.dryRun
            ? t('settings.system.oneApiImport.dryRunBadge')
            : t('settings.system.oneApiImport.importedBadge')}
        </Badge>
      </Group>
      <Table.ScrollContainer minWidth={300}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('settings.system.oneApiImport.table')}</Table.Th>
              <Table.Th ta="right">{t('settings.system.oneApiImport.read')}</Table.Th>
              <Table.Th ta="right">{t('settings.system.oneApiImport.imported')}</Table.Th>
              <Table.Th ta="right">{t('settings.system.oneApiImport.skippedCount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Object.entries(report.tables).map(([table, count]) => (
              <Table.Tr key={table}>
                <Table.Td>{table}</Table.Td>
                <Table.Td ta="right">{count.read}</Table.Td>
                <Table.Td ta="right">{count.imported}</Table.Td>
                <Table.Td ta="right">{count.skipped}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {report.skipped.length > 0 && (
        <div>
          <Text size="sm" fw={500}>
            {t('settings.system.oneApiImport.skipped')}
          </Text>
          <List size="sm" style={{ wordBreak: 'break-word' }}>
            {report.skipped.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </div>
      )}
      {report.notes.length > 0 && (
        <div>
          <Text size="sm" fw={500}>
            {t('settings.system.oneApiImport.notes')}
          </Text>
          <List size="sm" style={{ wordBreak: 'break-word' }}>
            {report.notes.map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </div>
      )}
    </Stack>
  );
}
