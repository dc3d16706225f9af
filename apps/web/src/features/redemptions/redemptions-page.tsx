import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  DataTable,
  SearchBox,
  useListUrlState,
  usePagedList,
  pagingProps,
  ListFooter,
} from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { useQuotaDisplay } from '../users/use-quota-display';
import { listRedemptions, redemptionKeys, searchRedemptions } from './redemptions-queries';
import { useRedemptionColumns } from './redemptions-table';
import { useRedemptionActions } from './use-redemption-actions';

export default function RedemptionsPage() {
  const { t } = useTranslation();
  const state = useListUrlState();
  const list = usePagedList({
    queryKey: redemptionKeys.list(),
    fetchPage: listRedemptions,
    search: searchRedemptions,
    keyword: state.keyword,
  });
  const actions = useRedemptionActions((code) => state.setKeyword(code));
  const columns = useRedemptionColumns(actions, useQuotaDisplay());

  return (
    <>
      <PageTitle
        title={t('redemptions.title')}
        description={t('redemptions.description')}
        actions={
          <Button component={Link} to="/redemption/add" leftSection={<IconPlus size={16} />}>
            {t('redemptions.action.add')}
          </Button>
        }
      />
      <SearchBox value={state.keyword} onSearch={state.setKeyword} placeholder={t('redemptions.search')} />
      <DataTable
        columns={columns}
        {...pagingProps(list, state)}
        rowKey={(redemption) => redemption.id}
        emptyText={t('redemptions.empty')}
        footer={
          <ListFooter
            add={{ label: t('redemptions.action.add'), to: '/redemption/add' }}
            refreshLabel={t('redemptions.action.refresh')}
            onRefresh={actions.refresh}
            list={list}
          />
        }
      />
    </>
  );
}
