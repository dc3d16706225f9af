import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { normalizeAddress } from '@gatehouse/shared';
import { ConfigExport } from './config-export';
import { OneApiImport } from './one-api-import';
import { DomainWhitelistInput } from './domain-whitelist-input';
import { OptionSecretInput, OptionTextInput } from './option-fields';
import { OptionSwitch } from './option-switch';
import { OptionsGate } from './options-gate';
import type { OptionValues } from './options-queries';
import { SettingsSection } from './settings-section';
import { useOptionForm } from './use-option-form';

const loginSwitches = [
  'PasswordLoginEnabled',
  'PasswordRegisterEnabled',
  'EmailVerificationEnabled',
  'GitHubOAuthEnabled',
  'WeChatAuthEnabled',
  'OidcEnabled',
  'TurnstileCheckEnabled',
  'RegisterEnabled',
  'TwoFactorRequiredForAdmins',
] as const;

/** Addresses are saved without a trailing slash. */
const trimAddress = (value: string) => ({ value: normalizeAddress(value) });

/** A section of plain and secret text options with one save button. */
function FieldsSection(props: {
  options: OptionValues;
  title: string;
  description?: string;
  fields: ReadonlyArray<{ key: string; secret?: boolean; placeholder?: string; description?: string }>;
  addresses?: readonly string[];
}) {
  const { t } = useTranslation();
  const keys = props.fields.map((field) => field.key);
  const secrets = props.fields.filter((field) => field.secret).map((field) => field.key);
  const prepare = Object.fromEntries((props.addresses ?? []).map((key) => [key, trimAddress]));
  const form = useOptionForm(keys, props.options, {
    secrets,
    skipWhenBlank: ['SMTPPort'],
    prepare,
  });
  return (
    <SettingsSection title={props.title} description={props.description} form={form}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {props.fields.map((field) => {
          const Input = field.secret ? OptionSecretInput : OptionTextInput;
          return (
            <Input
              key={field.key}
              form={form}
              optionKey={field.key}
              label={t(`settings.system.fields.${field.key}`)}
              placeholder={field.placeholder}
              description={field.description}
            />
          );
        })}
      </SimpleGrid>
    </SettingsSection>
  );
}

function DomainRestrictionSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(['EmailDomainWhitelist'], options);
  return (
    <SettingsSection
      title={t('settings.system.domain.title')}
      description={t('settings.system.domain.description')}
      form={form}
    >
      <OptionSwitch
        options={options}
        optionKey="EmailDomainRestrictionEnabled"
        label={t('settings.system.switches.EmailDomainRestrictionEnabled')}
      />
      <DomainWhitelistInput form={form} />
    </SettingsSection>
  );
}

function SystemOptions({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const serverAddress = options.ServerAddress || window.location.origin;
  return (
    <Stack gap="lg">
      <FieldsSection
        options={options}
        title={t('settings.system.general')}
        fields={[{ key: 'ServerAddress', placeholder: 'https://gateway.example.com' }]}
        addresses={['ServerAddress']}
      />
      <SettingsSection title={t('settings.system.login')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {loginSwitches.map((key) => (
            <OptionSwitch
              key={key}
              options={options}
              optionKey={key}
              label={t(`settings.system.switches.${key}`)}
              confirmOff={
                key === 'PasswordLoginEnabled'
                  ? {
                      title: t('settings.system.passwordLoginOff.title'),
                      message: t('settings.system.passwordLoginOff.message'),
                    }
                  : undefined
              }
            />
          ))}
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {t('settings.system.switchesHint')}
        </Text>
      </SettingsSection>
      <DomainRestrictionSection options={options} />
      <FieldsSection
        options={options}
        title={t('settings.system.smtp')}
        description={t('settings.system.smtpHint')}
        fields={[
          { key: 'SMTPServer', placeholder: 'smtp.example.com' },
          { key: 'SMTPPort', placeholder: '587', description: t('settings.system.smtpPortHint') },
          { key: 'SMTPAccount' },
          { key: 'SMTPFrom' },
          { key: 'SMTPToken', secret: true },
        ]}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.github')}
        description={t('settings.system.callbackHint', { url: `${serverAddress}/oauth/github` })}
        fields={[{ key: 'GitHubClientId' }, { key: 'GitHubClientSecret', secret: true }]}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.lark')}
        description={t('settings.system.callbackHint', { url: `${serverAddress}/oauth/lark` })}
        fields={[{ key: 'LarkClientId' }, { key: 'LarkClientSecret', secret: true }]}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.oidc')}
        description={t('settings.system.oidcHint', { url: `${serverAddress}/oauth/oidc` })}
        fields={[
          { key: 'OidcProviderName', placeholder: 'Company SSO' },
          {
            key: 'OidcDiscoveryURL',
            placeholder: 'https://idp.example.com/.well-known/openid-configuration',
          },
          { key: 'OidcClientId' },
          { key: 'OidcClientSecret', secret: true },
          { key: 'OidcScopes', placeholder: 'openid profile email' },
          { key: 'OidcUsernameClaim', placeholder: 'preferred_username' },
          { key: 'OidcDisplayNameClaim', placeholder: 'name' },
          { key: 'OidcEmailClaim', placeholder: 'email' },
        ]}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.wechat')}
        description={t('settings.system.wechatHint')}
        fields={[
          { key: 'WeChatServerAddress', placeholder: 'https://' },
          { key: 'WeChatServerToken', secret: true },
          { key: 'WeChatAccountQRCodeImageURL', placeholder: 'https://' },
        ]}
        addresses={['WeChatServerAddress']}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.pusher')}
        description={t('settings.system.pusherHint')}
        fields={[
          { key: 'MessagePusherAddress', placeholder: 'https://' },
          { key: 'MessagePusherToken', secret: true },
        ]}
        addresses={['MessagePusherAddress']}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.turnstile')}
        description={t('settings.system.turnstileHint')}
        fields={[{ key: 'TurnstileSiteKey' }, { key: 'TurnstileSecretKey', secret: true }]}
      />
      <FieldsSection
        options={options}
        title={t('settings.system.metrics')}
        description={t('settings.system.metricsHint', { url: `${serverAddress}/metrics` })}
        fields={[{ key: 'MetricsToken', secret: true }]}
      />
      <ConfigExport />
      <OneApiImport />
    </Stack>
  );
}

export function SystemSettings() {
  return <OptionsGate>{(options) => <SystemOptions options={options} />}</OptionsGate>;
}
