import { Alert, PasswordInput, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ChannelType, DEFAULT_AZURE_API_VERSION, findChannelType } from '@gatehouse/shared';
import { translateError } from '../../components/translate-error';
import type { ChannelFormValues } from './channel-form-schema';

interface ChannelTypeFieldsProps {
  type: number;
  register: UseFormRegister<ChannelFormValues>;
  errors: FieldErrors<ChannelFormValues>;
  /** editing a stored channel: blank credentials keep the stored ones */
  isEdit: boolean;
}

/** i18n keys of the `other` field's label and placeholder, for the types that use it. */
const otherFieldByType: Readonly<Record<number, { label: string; placeholder: string }>> = {
  [ChannelType.azure]: { label: 'azureVersion', placeholder: 'azureVersionPlaceholder' },
  [ChannelType.ali]: { label: 'aliPlugin', placeholder: 'aliPluginPlaceholder' },
  [ChannelType.xunfei]: { label: 'sparkVersion', placeholder: 'sparkVersionPlaceholder' },
  [ChannelType.aiProxyLibrary]: { label: 'knowledgeBaseId', placeholder: 'knowledgeBaseIdPlaceholder' },
  [ChannelType.gemini]: { label: 'geminiVersion', placeholder: 'geminiVersionPlaceholder' },
};

/** The base URL field's wording by type; types absent here use the generic optional field. */
const baseUrlFieldByType: Readonly<Record<number, { label: string; placeholder: string }>> = {
  [ChannelType.azure]: { label: 'azureEndpoint', placeholder: 'azureEndpointPlaceholder' },
  [ChannelType.custom]: { label: 'customBaseUrl', placeholder: 'customBaseUrlPlaceholder' },
  [ChannelType.fastGpt]: { label: 'fastGptAddress', placeholder: 'fastGptAddressPlaceholder' },
  [ChannelType.proxy]: { label: 'baseUrl', placeholder: 'baseUrlRequiredPlaceholder' },
};

const hintByType: Readonly<Record<number, string>> = {
  [ChannelType.azure]: 'azureHint',
  [ChannelType.coze]: 'cozeHint',
  [ChannelType.doubao]: 'doubaoHint',
  [ChannelType.palm]: 'palmRetiredHint',
  [ChannelType.aiProxyLibrary]: 'aiProxyLibraryHint',
};

/** AWS and Vertex AI reach their vendor by region: no base URL. */
const typesWithoutBaseUrl: readonly number[] = [ChannelType.awsClaude, ChannelType.vertexAi];

/** The fields that vary with the channel type: base URL wording, `other`, and the config JSON's fields. */
export function ChannelTypeFields({ type, register, errors, isEdit }: ChannelTypeFieldsProps) {
  const { t } = useTranslation();
  const f = (key: string, options?: Record<string, unknown>) => t(`channels.form.${key}`, options);
  const secretPlaceholder = (placeholder: string) => (isEdit ? f('keepSecretPlaceholder') : f(placeholder));
  const baseUrl = baseUrlFieldByType[type];
  const other = otherFieldByType[type];
  const hint = hintByType[type];
  const defaultUrl = findChannelType(type)?.defaultBaseUrl ?? '';

  return (
    <>
      {hint && (
        <Alert color="yellow" variant="light">
          {f(hint)}
        </Alert>
      )}
      {!typesWithoutBaseUrl.includes(type) && (
        <TextInput
          label={f(baseUrl?.label ?? 'baseUrl')}
          placeholder={baseUrl ? f(baseUrl.placeholder) : f('baseUrlPlaceholder', { url: defaultUrl || '—' })}
          description={baseUrl ? undefined : f('baseUrlHint')}
          withAsterisk={baseUrl !== undefined && type !== ChannelType.fastGpt}
          error={translateError(t, errors.base_url)}
          {...register('base_url')}
        />
      )}
      {other && (
        <TextInput
          label={f(other.label)}
          placeholder={f(other.placeholder, { version: DEFAULT_AZURE_API_VERSION })}
          {...register('other')}
        />
      )}
      {type === ChannelType.awsClaude && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={f('region')}
            placeholder={f('awsRegionPlaceholder')}
            {...register('config.region')}
          />
          <PasswordInput
            label={f('ak')}
            placeholder={secretPlaceholder('akPlaceholder')}
            {...register('config.ak')}
          />
          <PasswordInput
            label={f('sk')}
            placeholder={secretPlaceholder('skPlaceholder')}
            {...register('config.sk')}
          />
        </SimpleGrid>
      )}
      {type === ChannelType.coze && (
        <TextInput
          label={f('cozeUserId')}
          placeholder={f('cozeUserIdPlaceholder')}
          {...register('config.user_id')}
        />
      )}
      {type === ChannelType.cloudflare && (
        <TextInput
          label={f('cloudflareAccountId')}
          placeholder={f('cloudflareAccountIdPlaceholder')}
          {...register('config.user_id')}
        />
      )}
      {type === ChannelType.vertexAi && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={f('region')}
              placeholder={f('vertexRegionPlaceholder')}
              {...register('config.region')}
            />
            <TextInput
              label={f('vertexProject')}
              placeholder={f('vertexProjectPlaceholder')}
              {...register('config.vertex_ai_project_id')}
            />
          </SimpleGrid>
          <Textarea
            label={f('vertexCredentials')}
            placeholder={secretPlaceholder('vertexCredentialsPlaceholder')}
            autosize
            minRows={3}
            maxRows={10}
            error={translateError(t, errors.config?.vertex_ai_adc)}
            {...register('config.vertex_ai_adc')}
          />
        </>
      )}
    </>
  );
}
