import { useMemo, useState } from 'react';
import {
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCopy, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { findRatioJsonProblem, type BuiltInPriceRow, type ModelPriceRatios } from '@gatehouse/shared';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { listMediaPrices, MediaPriceList } from '../pricing/media-prices';
import {
  builtInPricesQueryOptions,
  copiedOptionKeys,
  copyBuiltInTable,
  filterPriceRows,
  formatUsd,
  pricesOf,
  type CopyMode,
  type TokenPrices,
} from './built-in-prices';
import type { OptionForm } from './use-option-form';

const PHONE_ROWS = 20;

/** Ratios from yuan prices are long decimals (0.857142857142857): six places are plenty to read. */
const formatRatio = (value: number) => String(Math.round(value * 1e6) / 1e6);
const priceKinds = ['input', 'output', 'cacheRead', 'cacheWrite'] as const;

/** The audio and image prices of a model's ratios, in US dollars per million tokens. */
function mediaPricesOf(ratios: ModelPriceRatios, usdAtRatio1: number) {
  const prices = pricesOf(ratios, usdAtRatio1);
  return listMediaPrices(ratios, prices.input, prices.output);
}

/** The audio and image prices charged now; when an option changed them, the built-in ones struck through beneath. */
function MediaCell({ row, usdAtRatio1 }: { row: BuiltInPriceRow; usdAtRatio1: number }) {
  if (row.effective.call_price !== null) return <Text size="sm">—</Text>;
  const now = mediaPricesOf(row.effective, usdAtRatio1);
  const builtIn = row.built_in ? mediaPricesOf(row.built_in, usdAtRatio1) : null;
  const isChanged = builtIn !== null && JSON.stringify(builtIn) !== JSON.stringify(now);
  return (
    <div>
      <MediaPriceList prices={now} format={formatUsd} />
      {isChanged && <MediaPriceList prices={builtIn} format={formatUsd} isStruck />}
    </div>
  );
}

/** A price as charged now; when an option changed it, the built-in one struck through beneath. */
function PriceCell({ now, builtIn }: { now: string; builtIn: string | null }) {
  return (
    <div>
      <Text size="sm">{now}</Text>
      {builtIn !== null && builtIn !== now && (
        <Text size="xs" c="dimmed" td="line-through">
          {builtIn}
        </Text>
      )}
    </div>
  );
}

function usePriceColumns(usdAtRatio1: number): DataTableColumn<BuiltInPriceRow>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const header = (key: string) => t(`settings.operation.builtIn.column.${key}`);
    const price = (row: BuiltInPriceRow, kind: keyof TokenPrices) => {
      if (row.effective.call_price !== null) return <Text size="sm">—</Text>;
      const builtIn = row.built_in ? formatUsd(pricesOf(row.built_in, usdAtRatio1)[kind]) : null;
      return <PriceCell now={formatUsd(pricesOf(row.effective, usdAtRatio1)[kind])} builtIn={builtIn} />;
    };
    return [
      {
        key: 'model',
        header: header('model'),
        render: (row) => (
          <Text size="sm" fw={500} ff="monospace" style={{ wordBreak: 'break-all' }}>
            {row.model}
          </Text>
        ),
        sortValue: (row) => row.model,
      },
      ...priceKinds.map((kind) => ({
        key: kind,
        header: header(kind),
        render: (row: BuiltInPriceRow) => price(row, kind),
        sortValue: (row: BuiltInPriceRow) => pricesOf(row.effective, usdAtRatio1)[kind],
      })),
      {
        key: 'media',
        header: header('media'),
        render: (row) => <MediaCell row={row} usdAtRatio1={usdAtRatio1} />,
      },
      {
        key: 'ratios',
        header: header('ratios'),
        render: (row) => (
          <Text size="xs" ff="monospace">
            {formatRatio(row.effective.model_ratio)} · {formatRatio(row.effective.completion_ratio)}
          </Text>
        ),
      },
      {
        key: 'perCall',
        header: header('perCall'),
        render: (row) => (row.effective.call_price === null ? '—' : formatUsd(row.effective.call_price)),
      },
      {
        key: 'source',
        header: header('source'),
        render: (row) => <PriceSource row={row} />,
      },
    ];
  }, [t, usdAtRatio1]);
}

function PriceSource({ row }: { row: BuiltInPriceRow }) {
  const { t } = useTranslation();
  if (!row.is_priced) {
    return (
      <Badge color="red" variant="light" tt="none">
        {t('settings.operation.builtIn.unpriced')}
      </Badge>
    );
  }
  if (row.overridden_by.length === 0) {
    return (
      <Badge color="gray" variant="light" tt="none">
        {t('settings.operation.builtIn.builtIn')}
      </Badge>
    );
  }
  return (
    <Group gap={4}>
      {row.overridden_by.map((key) => (
        <Badge key={key} color={row.built_in ? 'orange' : 'blue'} variant="light" tt="none">
          {key}
        </Badge>
      ))}
    </Group>
  );
}

/** The table on a phone: one card a model. */
function PriceCards({ rows, usdAtRatio1 }: { rows: BuiltInPriceRow[]; usdAtRatio1: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {rows.slice(0, PHONE_ROWS).map((row) => {
        const now = pricesOf(row.effective, usdAtRatio1);
        const builtIn = row.built_in ? pricesOf(row.built_in, usdAtRatio1) : null;
        return (
          <Paper key={row.model} withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap" mb={6} gap="xs" align="flex-start">
              <Text size="sm" fw={600} ff="monospace" style={{ wordBreak: 'break-all' }}>
                {row.model}
              </Text>
              <PriceSource row={row} />
            </Group>
            {row.effective.call_price === null ? (
              <SimpleGrid cols={2} spacing="xs" verticalSpacing={4}>
                {priceKinds.map((kind) => (
                  <div key={kind}>
                    <Text size="xs" c="dimmed">
                      {t(`settings.operation.builtIn.column.${kind}`)}
                    </Text>
                    <PriceCell
                      now={formatUsd(now[kind])}
                      builtIn={builtIn ? formatUsd(builtIn[kind]) : null}
                    />
                  </div>
                ))}
                {mediaPricesOf(row.effective, usdAtRatio1).length > 0 && (
                  <div style={{ gridColumn: '1 / -1' }}>
                    <Text size="xs" c="dimmed">
                      {t('settings.operation.builtIn.column.media')}
                    </Text>
                    <MediaCell row={row} usdAtRatio1={usdAtRatio1} />
                  </div>
                )}
              </SimpleGrid>
            ) : (
              <Text size="sm">
                {t('settings.operation.builtIn.perCallPrice', { price: formatUsd(row.effective.call_price) })}
              </Text>
            )}
          </Paper>
        );
      })}
      {rows.length > PHONE_ROWS && (
        <Text size="sm" c="dimmed">
          {t('settings.operation.builtIn.more', { count: rows.length - PHONE_ROWS })}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The gateway's own prices beside the ratio options: what each model costs now, which entries the options
 * override, and a button that copies the built-in table into the option fields (merged with what is set, or
 * replacing it) for the admin to review and save.
 */
export function BuiltInPriceTable({ form }: { form: OptionForm }) {
  const { t } = useTranslation();
  const table = useQuery(builtInPricesQueryOptions());
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [mode, setMode] = useState<CopyMode>('merge');
  const [copyNote, setCopyNote] = useState<{ text: string; isError: boolean } | null>(null);
  const usdAtRatio1 = table.data?.usd_per_million_at_ratio_1 ?? 2;
  const columns = usePriceColumns(usdAtRatio1);
  const rows = useMemo(() => filterPriceRows(table.data?.models ?? [], keyword), [table.data, keyword]);
  const builtInCount = table.data?.models.filter((row) => row.built_in).length ?? 0;
  const overriddenCount =
    table.data?.models.filter((row) => row.built_in && row.overridden_by.length > 0).length ?? 0;

  const copy = () => {
    if (!table.data) return;
    if (mode === 'merge') {
      const broken = copiedOptionKeys.find((key) => findRatioJsonProblem(form.values[key] ?? '') !== null);
      if (broken) {
        const name = t(`settings.operation.ratio.${broken}`);
        setCopyNote({ text: t('settings.operation.builtIn.copyBroken', { key: name }), isError: true });
        return;
      }
    }
    const texts = copyBuiltInTable(table.data.models, form.values, mode);
    for (const key of copiedOptionKeys) form.setValue(key, texts[key]);
    setCopyNote({
      text: t(`settings.operation.builtIn.copied.${mode}`, { count: builtInCount }),
      isError: false,
    });
  };

  return (
    <Stack gap="sm" data-testid="built-in-price-table">
      <div>
        <Title order={5}>{t('settings.operation.builtIn.title')}</Title>
        <Text size="sm" c="dimmed" mt={4}>
          {t('settings.operation.builtIn.description', { count: builtInCount, overridden: overriddenCount })}
        </Text>
      </div>
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('settings.operation.builtIn.search')}
        aria-label={t('settings.operation.builtIn.search')}
        value={keyword}
        onChange={(event) => {
          setKeyword(event.currentTarget.value);
          setPage(1);
        }}
      />
      <Box visibleFrom="sm">
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(row) => row.model}
          isLoading={table.isLoading}
          page={page}
          onPageChange={setPage}
          rowsPerPage={10}
          emptyText={t('settings.operation.builtIn.empty')}
        />
      </Box>
      <Box hiddenFrom="sm">
        {rows.length > 0 ? (
          <PriceCards rows={rows} usdAtRatio1={usdAtRatio1} />
        ) : (
          !table.isLoading && <Text c="dimmed">{t('settings.operation.builtIn.empty')}</Text>
        )}
      </Box>
      <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
        <Stack gap="xs">
          <SegmentedControl
            fullWidth
            value={mode}
            onChange={(value) => setMode(value as CopyMode)}
            aria-label={t('settings.operation.builtIn.modeLabel')}
            data={[
              { value: 'merge', label: t('settings.operation.builtIn.mode.merge') },
              { value: 'replace', label: t('settings.operation.builtIn.mode.replace') },
            ]}
          />
          <Text size="xs" c="dimmed">
            {t(`settings.operation.builtIn.modeHint.${mode}`)}
          </Text>
          <Group justify="flex-start">
            <Button
              variant="light"
              leftSection={<IconCopy size={16} />}
              onClick={copy}
              disabled={!table.data}
              // On a phone the label wraps rather than being cut.
              h="auto"
              py={6}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
            >
              {t('settings.operation.builtIn.copy')}
            </Button>
          </Group>
          {copyNote && (
            <Text size="sm" c={copyNote.isError ? 'red' : 'teal'} role="status">
              {copyNote.text}
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
