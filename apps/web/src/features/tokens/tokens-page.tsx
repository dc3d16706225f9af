import { Button, Group, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TOKEN_ORDERS, type TokenOrder } from '@gatehouse/shared';
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
import { listTokens, searchTokens, tokenKeys } from './tokens-queries';
import { useTokenColumns } from './tokens-table';
import { useTokenActions } from './use-token-actions';

const orderLabels: Record<TokenOrder, string> = {
  '': 'tokens.order.default',
  remain_quota: 'tokens.order.remainQuota',
  used_quota: 'tokens.order.usedQuota',
};

/** Mantine's Select has no '' option: the default order is shown under this value. */
const NEWEST = 'newest';

function readOrder(value: string): TokenOrder {
  return (TOKEN_ORDERS as readonly string[]).includes(value) ? (value as TokenOrder) : '';
}

export default function TokensPage() {
  const { t } = useTranslation();
  const state = useListUrlState();
  const order = readOrder(state.get('order'));
  const list = usePagedList({
    queryKey: tokenKeys.list(order),
    fetchPage: (page, signal) => listTokens(page, order, signal),
    search: searchTokens,
    keyword: state.keyword,
  });
  // A key the clipboard refused goes into the search box, where it can be selected and copied.
  const actions = useTokenActions((key) => state.setKeyword(key));
  const columns = useTokenColumns(actions, useQuotaDisplay());

  return (
    <>
      <PageTitle
        title={t('tokens.title')}
        description={t('tokens.description')}
        actions={
          <Button component={Link} to="/token/add" leftSection={<IconPlus size={16} />}>
            {t('tokens.action.add')}
          </Button>
        }
      />
      <Group align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 280px' }}>
          <SearchBox value={state.keyword} onSearch={state.setKeyword} placeholder={t('tokens.search')} />
        </div>
        <Select
          aria-label={t('tokens.orderLabel')}
          w={{ base: '100%', xs: 240 }}
          data={TOKEN_ORDERS.map((value) => ({ value: value || NEWEST, label: t(orderLabels[value]) }))}
          value={order || NEWEST}
          onChange={(value) => state.set('order', value === NEWEST || value === null ? '' : value)}
          allowDeselect={false}
          disabled={state.keyword !== ''}
        />
      </Group>
      <DataTable
        columns={columns}
        {...pagingProps(list, state)}
        rowKey={(token) => token.id}
        emptyText={t('tokens.empty')}
        footer={
          <ListFooter
            add={{ label: t('tokens.action.add'), to: '/token/add' }}
            refreshLabel={t('tokens.action.refresh')}
            onRefresh={actions.refresh}
            list={list}
          />
        }
      />
    </>
  );
}
