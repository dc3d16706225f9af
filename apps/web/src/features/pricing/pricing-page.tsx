import { useMemo } from 'react';
import { Box, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DataTable, SearchBox, useListUrlState } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { PricingCards } from './pricing-cards';
import { priceListQueryOptions } from './pricing-queries';
import { usePricingColumns } from './pricing-table';

/** Prices users can see: every model their groups can call, per million tokens, with the group ratio applied. */
export default function PricingPage() {
  const { t } = useTranslation();
  const urlState = useListUrlState();
  const priceList = useQuery(priceListQueryOptions());
  const columns = usePricingColumns(priceList.data);
  const keyword = urlState.keyword.toLowerCase();
  const models = useMemo(
    () => (priceList.data?.models ?? []).filter((model) => model.model.toLowerCase().includes(keyword)),
    [priceList.data, keyword],
  );
  const unit =
    priceList.data?.display_in_currency === false ? t('pricing.unitQuota') : t('pricing.unitCurrency');

  return (
    <>
      <PageTitle title={t('pricing.title')} description={t('pricing.description')} />
      <SearchBox value={urlState.keyword} onSearch={urlState.setKeyword} placeholder={t('pricing.search')} />
      <Text size="sm" c="dimmed" mb="sm">
        {unit}
      </Text>
      <Box visibleFrom="sm">
        <DataTable
          columns={columns}
          rows={models}
          rowKey={(model) => model.model}
          isLoading={priceList.isLoading}
          page={urlState.page}
          onPageChange={urlState.setPage}
          rowsPerPage={20}
          emptyText={t('pricing.empty')}
        />
      </Box>
      <Box hiddenFrom="sm">
        {priceList.data && models.length > 0 ? (
          <PricingCards list={priceList.data} models={models} />
        ) : (
          !priceList.isLoading && <Text c="dimmed">{t('pricing.empty')}</Text>
        )}
      </Box>
    </>
  );
}
