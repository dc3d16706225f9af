import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { groupColor, roleLabelKey, userStatusBadges, type User } from '@gatehouse/shared';
import { DataTable, type DataTableColumn, type DataTableProps } from '../../components/data-table';
import { UserActions } from './user-actions';
import { useFormatQuota } from './use-quota-display';
import { splitGroupList } from './group-list';
import { StatusBadge } from '../../components/status-badge';
import { LimitsSummary } from '../../components/limits/limits-summary';

/** Usernames are shown truncated to 15 characters. */
const USERNAME_SHOWN_LENGTH = 15;

// Badges keep their full text on narrow screens; the table scrolls sideways instead.
const noShrink = { flexShrink: 0 };

type UsersTableProps = Omit<DataTableProps<User>, 'columns' | 'rowKey'>;

export function UsersTable(props: UsersTableProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const columns: DataTableColumn<User>[] = [
    {
      key: 'id',
      header: t('users.list.id'),
      render: (user) => user.id,
      sortValue: (user) => user.id,
      width: 70,
    },
    {
      key: 'username',
      header: t('users.list.username'),
      sortValue: (user) => user.username,
      render: (user) => (
        <Tooltip label={user.display_name || user.username} openDelay={50} closeDelay={70}>
          <Text size="sm" span>
            {user.username.length > USERNAME_SHOWN_LENGTH
              ? `${user.username.slice(0, USERNAME_SHOWN_LENGTH)}…`
              : user.username}
          </Text>
        </Tooltip>
      ),
    },
    {
      key: 'group',
      header: t('users.list.group'),
      sortValue: (user) => user.group,
      render: (user) => (
        <Group gap={4}>
          {splitGroupList(user.group).map((group) => (
            <Badge key={group} color={groupColor(group)} variant="light" tt="none">
              {group}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: 'stats',
      header: t('users.list.stats'),
      sortValue: (user) => user.quota,
      render: (user) => (
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('users.list.remainingQuota')} openDelay={50} closeDelay={70}>
            <Badge color="green" variant="light" tt="none" style={noShrink}>
              {formatQuota(user.quota)}
            </Badge>
          </Tooltip>
          <Tooltip label={t('users.list.usedQuota')} openDelay={50} closeDelay={70}>
            <Badge color="gray" variant="light" tt="none" style={noShrink}>
              {formatQuota(user.used_quota)}
            </Badge>
          </Tooltip>
          <Tooltip label={t('users.list.requestCount')} openDelay={50} closeDelay={70}>
            <Badge color="blue" variant="light" tt="none" style={noShrink}>
              {user.request_count}
            </Badge>
          </Tooltip>
        </Group>
      ),
    },
    {
      key: 'limits',
      header: t('users.list.limits'),
      render: (user) => <LimitsSummary limits={user} />,
    },
    {
      key: 'role',
      header: t('users.list.role'),
      sortValue: (user) => user.role,
      render: (user) => <Text size="sm">{t(roleLabelKey(user.role))}</Text>,
    },
    {
      key: 'status',
      header: t('users.list.status'),
      sortValue: (user) => user.status,
      render: (user) => <StatusBadge map={userStatusBadges} value={user.status} />,
    },
    { key: 'actions', header: t('users.list.actions'), render: (user) => <UserActions user={user} /> },
  ];
  return <DataTable {...props} columns={columns} rowKey={(user) => user.id} />;
}
