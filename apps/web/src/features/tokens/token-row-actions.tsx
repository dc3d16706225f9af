import { Button, Group, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TokenStatus, type Token } from '@gatehouse/shared';
import { snippetKinds } from './token-snippets';
import type { TokenActions } from './use-token-actions';
import { SplitButton } from '../../components/split-button';

/** Copy (the key, or a ready-to-run snippet), enable/disable, edit, delete. */
export function TokenRowActions({ token, actions }: { token: Token; actions: TokenActions }) {
  const { t } = useTranslation();
  const a = (key: string) => t(`tokens.action.${key}`);
  const isEnabled = token.status === TokenStatus.enabled;

  return (
    <Group gap={6} wrap="nowrap">
      <SplitButton
        label={a('copy')}
        onClick={() => actions.copy(token)}
        menuLabel={a('copyAs')}
        menuAriaLabel={`${a('copyAs')} (${token.name})`}
        menuItems={
          <>
            <Menu.Item onClick={() => actions.copy(token, 'key')}>{t('tokens.snippet.key')}</Menu.Item>
            {snippetKinds.map((kind) => (
              <Menu.Item key={kind} onClick={() => actions.copy(token, kind)}>
                {t(`tokens.snippet.${kind}`)}
              </Menu.Item>
            ))}
          </>
        }
      />
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
