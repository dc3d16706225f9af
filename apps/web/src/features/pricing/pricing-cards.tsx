import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PriceList, PricedModel } from '@gatehouse/shared';
import { listMediaPrices, MediaPriceList } from './media-prices';
import { formatPrice } from './pricing-queries';

/**
 * The price list on a phone: one card a model, the four prices in two columns (no sideways scrolling) and the
 * audio and image prices of the models that have their own, or the price per call for a model priced per call.
 */
export function PricingCards({ list, models }: { list: PriceList; models: PricedModel[] }) {
  const { t } = useTranslation();
  const price = (key: string, value: number) => (
    <div>
      <Text size="xs" c="dimmed">
        {t(`pricing.column.${key}`)}
      </Text>
      <Text size="sm">{formatPrice(value, list)}</Text>
    </div>
  );
  return (
    <Stack gap="sm">
      {models.map((model) => (
        <Paper key={model.model} withBorder p="sm" radius="md">
          <Group justify="space-between" wrap="nowrap" mb={6} gap="xs">
            <Text size="sm" fw={600} ff="monospace" style={{ wordBreak: 'break-all' }}>
              {model.model}
            </Text>
            <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
              {t('pricing.groupRatio', { group: model.group, ratio: model.group_ratio })}
            </Badge>
          </Group>
          {model.call_price === null ? (
            <>
              <SimpleGrid cols={2} spacing="xs" verticalSpacing={4}>
                {price('input', model.input_price)}
                {price('output', model.output_price)}
                {price('cacheRead', model.cache_read_price)}
                {price('cacheWrite', model.cache_write_price)}
              </SimpleGrid>
              <MediaCardLines list={list} model={model} />
            </>
          ) : (
            <Text size="sm">{t('pricing.perCall', { price: formatPrice(model.call_price, list) })}</Text>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

function MediaCardLines({ list, model }: { list: PriceList; model: PricedModel }) {
  const { t } = useTranslation();
  const prices = listMediaPrices(model, model.input_price, model.output_price);
  if (prices.length === 0) return null;
  return (
    <div style={{ marginTop: 4 }}>
      <Text size="xs" c="dimmed">
        {t('pricing.column.media')}
      </Text>
      <MediaPriceList prices={prices} format={(value) => formatPrice(value, list)} />
    </div>
  );
}
