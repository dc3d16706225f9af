import { SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  findRatioJsonProblem,
  formatRatioJson,
  ratioOptionNames,
  type RatioOptionKey,
} from '@gatehouse/shared';
import { BuiltInPriceTable } from './built-in-price-table';
import { copiedOptionKeys } from './built-in-prices';
import { LogClearing } from './log-clearing';
import { OptionNumberInput, OptionTextarea, OptionTextInput } from './option-fields';
import { OptionSwitch } from './option-switch';
import { OptionsGate } from './options-gate';
import type { OptionValues } from './options-queries';
import { SettingsSection } from './settings-section';
import { useOptionForm } from './use-option-form';

const quotaKeys = [
  'QuotaForNewUser',
  'PreConsumedQuota',
  'QuotaForInviter',
  'QuotaForInvitee',
  'QuotaRemindThreshold',
] as const;
const ratioKeys = Object.keys(ratioOptionNames) as RatioOptionKey[];
const generalKeys = ['TopUpLink', 'ChatLink', 'QuotaPerUnit', 'RetryTimes', 'LogRetentionDays'] as const;
const resilienceKeys = [
  'CircuitBreakerThreshold',
  'CircuitBreakerCooldown',
  'CircuitBreakerMaxCooldown',
  'StreamFirstTokenTimeout',
] as const;
const monitoringKeys = [
  'ChannelDisableThreshold',
  'ChannelBalanceWarningThreshold',
  ...resilienceKeys,
] as const;
const responsesKeys = ['ResponsesRetentionDays'] as const;

function QuotaSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(quotaKeys, options);
  return (
    <SettingsSection title={t('settings.operation.quota.title')} form={form}>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {quotaKeys.map((key) => (
          <OptionNumberInput
            key={key}
            form={form}
            optionKey={key}
            label={t(`settings.operation.quota.${key}`)}
            description={t(`settings.operation.quota.${key}Hint`)}
          />
        ))}
      </SimpleGrid>
    </SettingsSection>
  );
}

function RatioSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  // The editors show pretty JSON ({} as blank); what changed is judged on that text.
  const shown = Object.fromEntries(ratioKeys.map((key) => [key, formatRatioJson(options[key] ?? '')]));
  const prepare = Object.fromEntries(
    ratioKeys.map((key) => [
      key,
      (value: string) => {
        const problem = findRatioJsonProblem(value);
        if (!problem) return { value };
        const name = t(`settings.operation.ratio.${key}`);
        return { error: t(`settings.operation.ratio.problem.${problem.kind}`, { key: name, ...problem }) };
      },
    ]),
  );
  const form = useOptionForm(ratioKeys, shown, { prepare });
  return (
    <SettingsSection
      title={t('settings.operation.ratio.title')}
      description={t('settings.operation.ratio.description')}
      form={form}
    >
      {ratioKeys.map((key) => (
        <OptionTextarea
          key={key}
          form={form}
          optionKey={key}
          monospace
          label={t(`settings.operation.ratio.${key}`)}
          description={t(`settings.operation.ratio.${key}Hint`)}
          placeholder={
            // Blank is not "nothing": the built-in table below prices every model these leave out.
            (copiedOptionKeys as readonly string[]).includes(key)
              ? t('settings.operation.ratio.placeholderBuiltIn')
              : t('settings.operation.ratio.placeholder')
          }
        />
      ))}
      <BuiltInPriceTable form={form} />
    </SettingsSection>
  );
}

function GeneralSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(generalKeys, options);
  return (
    <SettingsSection title={t('settings.operation.general.title')} form={form}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <OptionTextInput
          form={form}
          optionKey="TopUpLink"
          label={t('settings.operation.general.TopUpLink')}
          placeholder="https://"
        />
        <OptionTextInput
          form={form}
          optionKey="ChatLink"
          label={t('settings.operation.general.ChatLink')}
          placeholder="https://"
        />
        <OptionNumberInput
          form={form}
          optionKey="QuotaPerUnit"
          step={0.01}
          label={t('settings.operation.general.QuotaPerUnit')}
          description={t('settings.operation.general.QuotaPerUnitHint')}
        />
        <OptionNumberInput
          form={form}
          optionKey="RetryTimes"
          label={t('settings.operation.general.RetryTimes')}
        />
        <OptionNumberInput
          form={form}
          optionKey="LogRetentionDays"
          label={t('settings.operation.general.LogRetentionDays')}
          description={t('settings.operation.general.LogRetentionDaysHint')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(
          [
            'LogConsumeEnabled',
            'DisplayInCurrencyEnabled',
            'DisplayTokenStatEnabled',
            'ApproximateTokenEnabled',
          ] as const
        ).map((key) => (
          <OptionSwitch
            key={key}
            options={options}
            optionKey={key}
            label={t(`settings.operation.general.${key}`)}
            description={t(`settings.operation.general.${key}Hint`)}
          />
        ))}
      </SimpleGrid>
    </SettingsSection>
  );
}

function MonitoringSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(monitoringKeys, options);
  return (
    <SettingsSection title={t('settings.operation.monitoring.title')} form={form}>
      <OptionNumberInput
        form={form}
        optionKey="ChannelDisableThreshold"
        step={0.1}
        label={t('settings.operation.monitoring.ChannelDisableThreshold')}
        description={t('settings.operation.monitoring.ChannelDisableThresholdHint')}
      />
      <OptionNumberInput
        form={form}
        optionKey="ChannelBalanceWarningThreshold"
        step={0.01}
        label={t('settings.operation.monitoring.ChannelBalanceWarningThreshold')}
        description={t('settings.operation.monitoring.ChannelBalanceWarningThresholdHint')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {resilienceKeys.map((key) => (
          <OptionNumberInput
            key={key}
            form={form}
            optionKey={key}
            step={key === 'CircuitBreakerThreshold' ? 1 : 0.1}
            label={t(`settings.operation.monitoring.${key}`)}
            description={t(`settings.operation.monitoring.${key}Hint`)}
          />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {(['AutomaticDisableChannelEnabled', 'AutomaticEnableChannelEnabled'] as const).map((key) => (
          <OptionSwitch
            key={key}
            options={options}
            optionKey={key}
            label={t(`settings.operation.monitoring.${key}`)}
          />
        ))}
      </SimpleGrid>
    </SettingsSection>
  );
}

/** Stored Responses API responses: previous_response_id and GET/DELETE /v1/responses/{id} need them. */
function ResponsesSection({ options }: { options: OptionValues }) {
  const { t } = useTranslation();
  const form = useOptionForm(responsesKeys, options);
  return (
    <SettingsSection
      title={t('settings.operation.responses.title')}
      description={t('settings.operation.responses.description')}
      form={form}
    >
      <OptionSwitch
        options={options}
        optionKey="ResponsesStorageEnabled"
        label={t('settings.operation.responses.ResponsesStorageEnabled')}
        description={t('settings.operation.responses.ResponsesStorageEnabledHint')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <OptionNumberInput
          form={form}
          optionKey="ResponsesRetentionDays"
          label={t('settings.operation.responses.ResponsesRetentionDays')}
          description={t('settings.operation.responses.ResponsesRetentionDaysHint')}
        />
      </SimpleGrid>
    </SettingsSection>
  );
}

export function OperationSettings() {
  return (
    <Stack gap="lg">
      <OptionsGate>
        {(options) => (
          <Stack gap="lg">
            <QuotaSection options={options} />
            <RatioSection options={options} />
            <GeneralSection options={options} />
            <MonitoringSection options={options} />
            <ResponsesSection options={options} />
          </Stack>
        )}
      </OptionsGate>
      <LogClearing />
    </Stack>
  );
}
