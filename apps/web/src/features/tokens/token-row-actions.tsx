import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TokenStatus, type Token } from '@gatehouse/shared';
import { snippetKinds } from './token-snippets';
import type { TokenActions } from './use-token-actions';

/** Copy (the key, or a ready-to-run snippet), enable/disable, edit, delete. */
export function TokenRowActions({ token, actions }: { token: Token; actions: TokenActions }) {
  const { t } = useTranslation();
  const a = (key: string) => t(`tokens.action.${key}`);
  const isEnabled = token.status === TokenStatus.enabled;

  return (
    <Group gap={6} wrap="nowrap">
      <Group gap={0} wrap="nowrap">
        <Button
          size="compact-xs"
          variant="light"
          onClick={() => actions.copy(token)}
          style={{ borderTopRightRadius: 0, borderBottomRightRadius: 0 }}
        >
          {a('copy')}
        </Button>
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon
              variant="light"
              size={22}
              aria-label={`${a('copyAs')} (${token.name})`}
              style={{
                borderTopLeftRadius: 0,
                borderBottomLeftRadius: 0,
                borderLeft: '1px solid var(--mantine-color-body)',
              }}
            >
              <IconChevronDown size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{a('copyAs')}</Menu.Label>
            <Menu.Item onClick={() => actions.copy(token, 'key')}>{t('tokens.snippet.key')}</Menu.Item>
            {snippetKinds.map((kind) => (
              <Menu.Item key={kind} onClick={() => actions.copy(token, kind)}>
                {t(`tokens.snippet.${kind}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Button
        size="compact-xs"
        variant="light"
        color={isEnabled ? 'yellow' : 'green'}
        loading={actions.isToggling(token.id)}
        onClick={() => actions.toggleStatus(token)}
      >
        {isEnabled ? a('disable') : a('enable')}
      </Button>
      <Button size="compact-xs" variant="light" component={Link} to={`/token/edit/${token.id}`}>
        {a('edit')}
      </Button>
      <Button size="compact-xs" variant="light" color="red" onClick={() => actions.remove(token)}>
        {a('delete')}
      </Button>
    </Group>
  );
}
