import { useMemo } from 'react';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PriceList, PricedModel } from '@gatehouse/shared';
import type { DataTableColumn } from '../../components/data-table';
import { listMediaPrices, MediaPriceList } from './media-prices';
import { formatPrice } from './pricing-queries';

/**
 * The price list's columns: model, group ratio, the four text and cache prices per million tokens and the audio
 * and image prices that differ from the text ones; a model priced per call shows its price per call in the input
 * column and no token prices.
 */
export function usePricingColumns(list: PriceList | undefined): DataTableColumn<PricedModel>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const price = (value: number) => (list ? formatPrice(value, list) : '');
    const tokenPrice = (model: PricedModel, value: number) =>
      model.call_price === null ? price(value) : '—';
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
        render: (model) =>
          model.call_price === null ? (
            price(model.input_price)
          ) : (
            <Badge variant="light" color="blue" tt="none">
              {t('pricing.perCall', { price: price(model.call_price) })}
            </Badge>
          ),
        sortValue: (model) => model.call_price ?? model.input_price,
      },
      {
        key: 'output',
        header: header('output'),
        render: (model) => tokenPrice(model, model.output_price),
        sortValue: (model) => model.output_price,
      },
      {
        key: 'cacheRead',
        header: header('cacheRead'),
        render: (model) => tokenPrice(model, model.cache_read_price),
        sortValue: (model) => model.cache_read_price,
      },
      {
        key: 'cacheWrite',
        header: header('cacheWrite'),
        render: (model) => tokenPrice(model, model.cache_write_price),
        sortValue: (model) => model.cache_write_price,
      },
      {
        key: 'media',
        header: header('media'),
        render: (model) =>
          model.call_price === null ? (
            <MediaPriceList
              prices={listMediaPrices(model, model.input_price, model.output_price)}
              format={price}
            />
          ) : (
            '—'
          ),
      },
    ];
  }, [list, t]);
}
