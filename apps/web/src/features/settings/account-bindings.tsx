import { useState } from 'react';
import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ServerStatus } from '@gatehouse/shared';
import { useStatus } from '../../api/status';
import { showSuccess } from '../../api/toast';
import { bindWeChat } from '../accounts/accounts-api';
import { EmailBindModal } from '../accounts/email-bind-modal';
import { startGitHubOAuth, startLarkOAuth, startOidcOAuth } from '../accounts/oauth-start';
import { WeChatCodeModal } from '../accounts/wechat-code-modal';
import { selfQueryOptions, userKeys } from '../users/users-queries';

type Dialog = 'email' | 'wechat' | null;

/** The accounts bound to the signed-in user, each with its bind button when the server offers it. */
export function AccountBindings() {
  const { t } = useTranslation();
  const status = useStatus();
  const queryClient = useQueryClient();
  // Lark binds in another window: coming back to this one shows the result.
  const { data: user } = useQuery({ ...selfQueryOptions(), refetchOnWindowFocus: true });
  const [dialog, setDialog] = useState<Dialog>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: userKeys.self() });

  const redirect = useMutation({
    mutationFn: ({ start, status }: { start: typeof startGitHubOAuth; status: ServerStatus }) =>
      start(status),
  });
  const wechat = useMutation({
    mutationFn: bindWeChat,
    onSuccess: () => {
      showSuccess(t('accounts.wechat.bound'));
      setDialog(null);
      void refresh();
    },
  });

  const bindings = [
    {
      key: 'email',
      label: t('settings.personal.bindings.email'),
      value: user?.email,
      action: t('accounts.bindings.email'),
      onBind: () => setDialog('email'),
    },
    {
      key: 'github',
      label: t('settings.personal.bindings.github'),
      value: user?.github_id,
      action: t('accounts.bindings.github'),
      onBind: status?.github_oauth ? () => redirect.mutate({ start: startGitHubOAuth, status }) : undefined,
    },
    {
      key: 'wechat',
      label: t('settings.personal.bindings.wechat'),
      value: user?.wechat_id,
      action: t('accounts.bindings.wechat'),
      onBind: status?.wechat_login ? () => setDialog('wechat') : undefined,
    },
    {
      key: 'lark',
      label: t('settings.personal.bindings.lark'),
      value: user?.lark_id,
      action: t('accounts.bindings.lark'),
      onBind: status?.lark_client_id ? () => redirect.mutate({ start: startLarkOAuth, status }) : undefined,
    },
    // Shown while OIDC is on, or while the user still has an account bound from when it was.
    ...(status?.oidc || user?.oidc_id
      ? [
          {
            key: 'oidc',
            label: t('settings.personal.bindings.oidc', { name: status?.oidc_provider_name || 'OIDC' }),
            value: user?.oidc_id,
            action: t('accounts.bindings.oidc', { name: status?.oidc_provider_name || 'OIDC' }),
            onBind: status?.oidc ? () => redirect.mutate({ start: startOidcOAuth, status }) : undefined,
          },
        ]
      : []),
  ];

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {bindings.map((binding) => (
          <Group key={binding.key} gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              flex={1}
              miw={0}
              label={binding.label}
              value={binding.value ?? ''}
              placeholder={t('settings.personal.bindings.notBound')}
              readOnly
              variant="filled"
            />
            {binding.onBind && (
              <Button variant="light" onClick={binding.onBind} aria-label={binding.action}>
                {t('accounts.bindings.bind')}
              </Button>
            )}
          </Group>
        ))}
      </SimpleGrid>
      <EmailBindModal
        opened={dialog === 'email'}
        onClose={() => setDialog(null)}
        onBound={() => {
          setDialog(null);
          void refresh();
        }}
      />
      <WeChatCodeModal
        opened={dialog === 'wechat'}
        onClose={() => setDialog(null)}
        title={t('accounts.wechat.bindTitle')}
        submitLabel={t('accounts.wechat.bind')}
        isPending={wechat.isPending}
        onSubmit={(code) => wechat.mutate(code)}
      />
    </>
  );
}
