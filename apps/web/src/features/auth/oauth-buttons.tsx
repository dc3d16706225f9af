import { Button, Divider, Stack } from '@mantine/core';
import { IconBrandGithub, IconBrandWechat, IconFeather, IconKey, type Icon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ServerStatus } from '@gatehouse/shared';

export type OAuthProvider = 'github' | 'wechat' | 'lark' | 'oidc';
export type OAuthHandlers = Partial<Record<OAuthProvider, () => void>>;

const providers: {
  id: OAuthProvider;
  label: string;
  /** the label's values, e.g. the OIDC provider's name */
  labelValues?: (status: ServerStatus) => Record<string, string>;
  icon: Icon;
  isEnabled: (status: ServerStatus) => boolean;
}[] = [
  {
    id: 'github',
    label: 'auth.login.github',
    icon: IconBrandGithub,
    isEnabled: (status) => status.github_oauth,
  },
  {
    id: 'wechat',
    label: 'auth.login.wechat',
    icon: IconBrandWechat,
    isEnabled: (status) => status.wechat_login,
  },
  {
    id: 'lark',
    label: 'auth.login.lark',
    icon: IconFeather,
    isEnabled: (status) => Boolean(status.lark_client_id),
  },
  {
    id: 'oidc',
    label: 'auth.login.oidcButton',
    labelValues: (status) => ({ name: status.oidc_provider_name || 'OIDC' }),
    icon: IconKey,
    isEnabled: (status) => Boolean(status.oidc),
  },
];

interface OAuthButtonsProps {
  status: ServerStatus | null;
  /** One handler per provider; a provider without one shows a disabled button. */
  handlers: OAuthHandlers;
  /** the provider whose page is being opened */
  pending?: OAuthProvider | null;
}

/** The third-party login buttons, each shown only when the server enables it. */
export function OAuthButtons({ status, handlers, pending = null }: OAuthButtonsProps) {
  const { t } = useTranslation();
  const enabled = status ? providers.filter((provider) => provider.isEnabled(status)) : [];
  if (enabled.length === 0) return null;
  return (
    <>
      <Divider label={t('auth.login.orContinueWith')} labelPosition="center" my="md" />
      {/* One full-width button per row: three side by side truncate their labels on a phone. */}
      <Stack gap="xs">
        {enabled.map(({ id, label, labelValues, icon: Icon }) => (
          <Button
            key={id}
            variant="default"
            fullWidth
            leftSection={<Icon size={18} />}
            onClick={handlers[id]}
            disabled={!handlers[id]}
            loading={pending === id}
          >
            {t(label, status && labelValues ? labelValues(status) : {})}
          </Button>
        ))}
      </Stack>
    </>
  );
}
