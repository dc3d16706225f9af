import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ChannelStatus, splitList, type Channel } from '@gatehouse/shared';
import type { ChannelActions } from './use-channel-actions';

/** Test (first model, or one picked from the row's list), enable/disable, edit, copy, delete. */
export function ChannelRowActions({ channel, actions }: { channel: Channel; actions: ChannelActions }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const models = splitList(channel.models);
  const a = (key: string) => t(`channels.action.${key}`);

  return (
    <Group gap={6} wrap="nowrap">
      <Group gap={0} wrap="nowrap">
        <Button
          size="compact-xs"
          variant="light"
          loading={actions.isTesting(channel.id)}
          onClick={() => actions.test(channel)}
          style={models.length > 1 ? { borderTopRightRadius: 0, borderBottomRightRadius: 0 } : undefined}
        >
          {a('test')}
        </Button>
        {models.length > 1 && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon
                variant="light"
                size={22}
                aria-label={`${a('testModel')} (${channel.name})`}
                style={{
                  borderTopLeftRadius: 0,
                  borderBottomLeftRadius: 0,
                  borderLeft: '1px solid var(--mantine-color-body)',
                }}
              >
                <IconChevronDown size={14} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown mah={320} style={{ overflowY: 'auto' }}>
              <Menu.Label>{a('testModel')}</Menu.Label>
              {models.map((model) => (
                <Menu.Item key={model} onClick={() => actions.test(channel, model)}>
                  {model}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Button
        size="compact-xs"
        variant="light"
        color={channel.status === ChannelStatus.enabled ? 'yellow' : 'green'}
        onClick={() => actions.toggleStatus(channel)}
      >
        {channel.status === ChannelStatus.enabled ? a('disable') : a('enable')}
      </Button>
      <Button size="compact-xs" variant="light" component={Link} to={`/channel/edit/${channel.id}`}>
        {a('edit')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        onClick={() => void navigate(`/channel/add/${channel.id}`)}
      >
        {a('copy')}
      </Button>
      <Button size="compact-xs" variant="light" color="red" onClick={() => actions.remove(channel)}>
        {a('delete')}
      </Button>
    </Group>
  );
}
