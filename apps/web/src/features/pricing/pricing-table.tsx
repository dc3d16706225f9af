import { useMemo } from 'react';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PriceList, PricedModel } from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { formatPrice } from './pricing-queries';

/** The price list's columns: model, group ratio and the four prices per million tokens. */
export function usePricingColumns(list: PriceList | undefined): DataTableColumn<PricedModel>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const price = (value: number) => (list ? formatPrice(value, list) : '');
    const header = (key: string) => t(`pricing.column.${key}`);
    return [
      {
        key: 'model',
        header: header('model'),
        render: (model) => (
          <Text size="sm" fw={500} ff="monospace">
            {model.model}
          </Text>
        ),
        sortValue: (model) => model.model,
      },
      {
        key: 'group',
        header: header('group'),
        render: (model) => (
          <Badge variant="light" color="gray" tt="none">
            {t('pricing.groupRatio', { group: model.group, ratio: model.group_ratio })}
          </Badge>
        ),
        sortValue: (model) => model.group_ratio,
      },
      {
        key: 'input',
        header: header('input'),
        render: (model) => price(model.input_price),
        sortValue: (model) => model.input_price,
      },
      {
        key: 'output',
        header: header('output'),
        render: (model) => price(model.output_price),
        sortValue: (model) => model.output_price,
      },
      {
        key: 'cacheRead',
        header: header('cacheRead'),
        render: (model) => price(model.cache_read_price),
        sortValue: (model) => model.cache_read_price,
      },
      {
        key: 'cacheWrite',
        header: header('cacheWrite'),
        render: (model) => price(model.cache_write_price),
        sortValue: (model) => model.cache_write_price,
      },
    ];
  }, [list, t]);
}
