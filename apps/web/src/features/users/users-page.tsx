import { Button, Group, Select } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { userListOrders, type UserListOrder } from '@gatehouse/shared';
import { SearchBox, pagingProps, useListUrlState, usePagedList } from '../../components/data-table';
import { PageTitle } from '../../components/page-title';
import { UsersTable } from './users-table';
import { listUsers, searchUsers, userKeys } from './users-queries';

const orderLabels: Record<UserListOrder, string> = {
  '': 'users.list.order.default',
  id: 'users.list.order.id',
  quota: 'users.list.order.quota',
  used_quota: 'users.list.order.usedQuota',
  request_count: 'users.list.order.requestCount',
};

const NEWEST = 'newest';

function readOrder(value: string): UserListOrder {
  return (userListOrders as readonly string[]).includes(value) ? (value as UserListOrder) : '';
}

export default function UsersPage() {
  const { t } = useTranslation();
  const state = useListUrlState();
  const order = readOrder(state.get('order'));
  const list = usePagedList({
    queryKey: userKeys.list(order),
    fetchPage: (page, signal) => listUsers(page, order, signal),
    search: searchUsers,
    keyword: state.keyword,
  });

  return (
    <>
      <PageTitle
        title={t('users.list.title')}
        actions={
          <Button component={Link} to="/user/add" leftSection={<IconPlus size={16} />}>
            {t('users.list.add')}
          </Button>
        }
      />
      <Group align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 280px' }}>
          <SearchBox value={state.keyword} onSearch={state.setKeyword} placeholder={t('users.list.search')} />
        </div>
        <Select
          aria-label={t('users.list.orderLabel')}
          w={{ base: '100%', xs: 220 }}
          // Mantine's Select has no '' option: the default order shows as 'newest'.
          data={userListOrders
            .filter((value) => value !== 'id')
            .map((value) => ({ value: value || NEWEST, label: t(orderLabels[value]) }))}
          value={order || NEWEST}
          onChange={(value) => state.set('order', value === NEWEST || value === null ? '' : value)}
          allowDeselect={false}
          disabled={state.keyword !== ''}
        />
      </Group>
      <UsersTable {...pagingProps(list, state)} />
    </>
  );
}
