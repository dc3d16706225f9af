import { Button, Group, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ChannelStatus, splitList, type Channel } from '@gatehouse/shared';
import type { ChannelActions } from './use-channel-actions';
import { SplitButton } from '../../components/split-button';

/** Test (first model, or one picked from the row's list), enable/disable, edit, copy, delete. */
export function ChannelRowActions({ channel, actions }: { channel: Channel; actions: ChannelActions }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const models = splitList(channel.models);
  const a = (key: string) => t(`channels.action.${key}`);

  return (
    <Group gap={6} wrap="nowrap">
      <SplitButton
        label={a('test')}
        loading={actions.isTesting(channel.id)}
        onClick={() => actions.test(channel)}
        menuLabel={a('testModel')}
        menuAriaLabel={`${a('testModel')} (${channel.name})`}
        menuMaxHeight={320}
        menuItems={
          models.length > 1 &&
          models.map((model) => (
            <Menu.Item key={model} onClick={() => actions.test(channel, model)}>
              {model}
            </Menu.Item>
          ))
        }
      />
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
