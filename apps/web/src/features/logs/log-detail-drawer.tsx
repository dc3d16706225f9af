import type { ReactNode } from 'react';
import { Code, Drawer, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { formatLogQuota, formatTimestamp, LogType, type Log, type QuotaDisplay } from '@gatehouse/shared';
import {
  describeLogCharge,
  formatChargeArithmetic,
  formatChargeNumber,
  isPricedPerImage,
} from './log-charge';

interface LogDetailDrawerProps {
  log: Log | null;
  isAdmin: boolean;
  quotaDisplay: QuotaDisplay;
  onClose: () => void;
}

/** label, value, and whether the row is a part of the row above it (indented) */
type Fact = [string, ReactNode, boolean?];

function Facts({ rows }: { rows: Fact[] }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4} horizontalSpacing={0}>
      <Table.Tbody>
        {rows.map(([label, value, isPart]) => (
          <Table.Tr key={label}>
            <Table.Td c="dimmed" pr="md" pl={isPart ? 'lg' : 0}>
              {label}
            </Table.Td>
            <Table.Td ta="right" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * One log entry in full: for a consumption, the usage it was billed for item by item, the ratios applied and
 * the charge written out, so it can be checked by hand; then the request's facts.
 */
export function LogDetailDrawer({ log, isAdmin, quotaDisplay, onClose }: LogDetailDrawerProps) {
  const { t } = useTranslation();
  const isNarrow = useMediaQuery('(max-width: 36em)');
  const label = (key: string) => t(`logs.detail.${key}`);
  return (
    <Drawer
      opened={log !== null}
      onClose={onClose}
      position="right"
      size={isNarrow ? '100%' : 'md'}
      title={<Title order={4}>{label('title')}</Title>}
    >
      {log && <LogDetail log={log} isAdmin={isAdmin} quotaDisplay={quotaDisplay} label={label} />}
    </Drawer>
  );
}

function LogDetail({
  log,
  isAdmin,
  quotaDisplay,
  label,
}: Omit<LogDetailDrawerProps, 'onClose' | 'log'> & { log: Log; label: (key: string) => string }) {
  const { t } = useTranslation();
  const charge = describeLogCharge(log);
  const count = (value: number) => formatChargeNumber(value);
  const ratio = (value: number) => `× ${formatChargeNumber(value)}`;
  const request: Fact[] = [
    [label('time'), formatTimestamp(log.created_at)],
    [label('model'), log.model_name],
    [label('key'), log.token_name],
    ...(isAdmin ? [[label('channel'), log.channel ? `#${log.channel}` : '—'] as Fact] : []),
    [label('protocol'), log.inbound_protocol ? t(`logs.protocol.${log.inbound_protocol}`) : '—'],
    [label('stream'), log.is_stream ? t('logs.detail.yes') : t('logs.detail.no')],
    [label('elapsed'), t('logs.detail.milliseconds', { value: count(log.elapsed_time) })],
    [
      label('firstToken'),
      log.first_token_ms > 0
        ? t('logs.detail.milliseconds', { value: count(log.first_token_ms) })
        : t('logs.detail.notMeasured'),
    ],
    [
      label('attempts'),
      log.retries.length
        ? t('logs.detail.attemptsCount', { count: log.retries.length + 1, retries: log.retries.length })
        : '1',
    ],
    [label('requestId'), log.request_id ? <Code>{log.request_id}</Code> : '—'],
  ];
  return (
    <Stack gap="lg">
      {charge ? (
        <>
          <Stack gap={4}>
            <Text fw={600}>{label('usage')}</Text>
            <Facts
              rows={[
                [label('freshPrompt'), count(charge.terms[0].tokens)],
                [label('cacheRead'), count(log.cache_read_tokens)],
                [label('cacheWrite'), count(log.cache_write_tokens)],
                [label('completion'), count(log.completion_tokens)],
                [label('reasoning'), count(log.reasoning_tokens), true],
                ...mediaRows(log).map(([key, tokens]): Fact => [label(key), count(tokens), true]),
              ]}
            />
          </Stack>
          <Stack gap={4}>
            <Text fw={600}>{label('ratios')}</Text>
            <Facts
              rows={[
                [label('modelRatio'), ratio(log.model_ratio)],
                [label('completionRatio'), ratio(log.completion_ratio)],
                [label('cacheReadRatio'), ratio(log.cache_read_ratio)],
                [label('cacheWriteRatio'), ratio(log.cache_write_ratio)],
                [label('groupRatio'), ratio(log.group_ratio)],
              ]}
            />
          </Stack>
          <Stack gap={4}>
            <Text fw={600}>{label('charge')}</Text>
            <Code block data-testid="log-charge-arithmetic" style={{ whiteSpace: 'pre-wrap' }}>
              {formatChargeArithmetic(log, charge)}
            </Code>
            <Text size="sm" c="dimmed">
              {t('logs.detail.chargeHint', { amount: formatLogQuota(log.quota, quotaDisplay) })}
            </Text>
          </Stack>
        </>
      ) : (
        log.type === LogType.consume &&
        (log.call_price > 0 ? (
          <>
            <Stack gap={4}>
              <Text fw={600}>{label('usage')}</Text>
              <Facts
                rows={[
                  [
                    label('freshPrompt'),
                    count(Math.max(0, log.prompt_tokens - log.cache_read_tokens - log.cache_write_tokens)),
                  ],
                  [label('cacheRead'), count(log.cache_read_tokens)],
                  [label('cacheWrite'), count(log.cache_write_tokens)],
                  [label('completion'), count(log.completion_tokens)],
                ]}
              />
            </Stack>
            <Stack gap={4}>
              <Text fw={600}>{label('charge')}</Text>
              <Text size="sm" c="dimmed" data-testid="log-charge-per-call">
                {t('logs.detail.perCall', {
                  price: formatChargeNumber(log.call_price),
                  groupRatio: formatChargeNumber(log.group_ratio),
                  amount: formatLogQuota(log.quota, quotaDisplay),
                })}
              </Text>
            </Stack>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {label(isPricedPerImage(log) ? 'perImage' : 'notItemised')}
          </Text>
        ))
      )}
      <Stack gap={4}>
        <Text fw={600}>{label('request')}</Text>
        <Facts rows={request} />
      </Stack>
      {log.retries.length > 0 && (
        <Stack gap={4}>
          <Text fw={600}>{label('retries')}</Text>
          <Facts
            rows={log.retries.map((retry, index): Fact => [
              `${index + 1}. ${isAdmin ? t('logs.detail.retryChannel', { channel: retry.channel }) : ''}`,
              retry.error || t('logs.detail.retryHidden'),
            ])}
          />
        </Stack>
      )}
      {log.content && (
        <Stack gap={4}>
          <Text fw={600}>{label('content')}</Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {log.content}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}

/** Audio and image counts (parts of the prompt or completion), listed only when the entry has any. */
function mediaRows(log: Log): [string, number][] {
  const rows: [string, number][] = [
    ['audioInput', log.audio_input_tokens],
    ['imageInput', log.image_input_tokens],
    ['audioOutput', log.audio_output_tokens],
    ['imageOutput', log.image_output_tokens],
  ];
  return rows.filter(([, tokens]) => tokens > 0);
}
