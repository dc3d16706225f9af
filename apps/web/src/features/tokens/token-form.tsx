import { useMemo } from 'react';
import {
  Button,
  Fieldset,
  Group,
  MultiSelect,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showSuccess } from '../../api/toast';
import { LimitInputs } from '../../components/limits/limit-inputs';
import { translateError } from '../../components/translate-error';
import { availableModelsQueryOptions } from '../settings/options-queries';
import { QuotaInput } from '../users/quota-input';
import { expiryFromNow, quickExpiries } from './token-expiry';
import {
  newTokenFormValues,
  toTokenPayload,
  validateTokenForm,
  type TokenFormValues,
} from './token-form-values';
import { createToken, tokenKeys, updateToken } from './tokens-queries';
import { FormActions } from '../../components/form-actions';

const resolver: Resolver<TokenFormValues> = async (values) => {
  const issues = validateTokenForm(values);
  if (Object.keys(issues).length === 0) return { values, errors: {} };
  const errors = Object.fromEntries(
    Object.entries(issues).map(([field, message]) => [field, { type: 'validate', message }]),
  );
  return { values: {}, errors: errors as FieldErrors<TokenFormValues> };
};

interface TokenFormProps {
  initialValues: TokenFormValues;
  /** the key being edited; absent when creating */
  editId?: number;
}

/** Key form: create (then reset for the next one) or edit. */
export function TokenForm({ initialValues, editId }: TokenFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { control, register, handleSubmit, setValue, reset, formState } = useForm<TokenFormValues>({
    defaultValues: initialValues,
    resolver,
  });
  const { errors } = formState;
  const unlimited = useWatch({ control, name: 'unlimited' });
  const selectedModels = useWatch({ control, name: 'models' });
  // Available models may not load (or list nothing): the field then takes any name typed in.
  const available = useQuery({ ...availableModelsQueryOptions(), retry: false });
  const modelOptions = useMemo(
    () => [...new Set([...(available.data ?? []).map((entry) => entry.model), ...selectedModels])].sort(),
    [available.data, selectedModels],
  );
  const canPickModels = available.isSuccess && available.data.length > 0;

  const save = useMutation({
    mutationFn: (values: TokenFormValues) =>
      editId === undefined
        ? createToken(toTokenPayload(values))
        : updateToken({ ...toTokenPayload(values), id: editId }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: tokenKeys.all });
      if (editId === undefined) {
        showSuccess(t('tokens.message.created'));
        reset(newTokenFormValues());
      } else {
        showSuccess(t('tokens.message.updated'));
        void navigate('/token');
      }
    },
  });

  const modelsField = {
    label: t('tokens.form.models'),
    description: t('tokens.form.modelsHint'),
    placeholder: selectedModels.length === 0 ? t('tokens.form.modelsPlaceholder') : undefined,
    clearable: true,
  };

  return (
    <form onSubmit={handleSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('tokens.form.name')}
          placeholder={t('tokens.form.namePlaceholder')}
          withAsterisk
          error={translateError(t, errors.name)}
          {...register('name')}
        />
        <Controller
          control={control}
          name="remainQuota"
          render={({ field }) => (
            <QuotaInput
              label={t('tokens.form.remainQuota')}
              hint={({ amount }) => t('tokens.form.remainQuotaHint', { amount })}
              min={0}
              step={500000}
              disabled={unlimited}
              error={translateError(t, errors.remainQuota)}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
        <Controller
          control={control}
          name="unlimited"
          render={({ field }) => (
            <Switch
              label={t('tokens.form.unlimited')}
              description={t('tokens.form.unlimitedHint')}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
            />
          )}
        />
        <div>
          <TextInput
            label={t('tokens.form.expiredTime')}
            placeholder={t('tokens.form.expiredTimePlaceholder')}
            error={translateError(t, errors.expiry)}
            {...register('expiry')}
          />
          <Group gap={6} mt={6}>
            {quickExpiries.map((option) => (
              <Button
                key={option.label}
                size="compact-xs"
                variant="light"
                onClick={() =>
                  setValue('expiry', expiryFromNow(option.seconds), {
                    shouldValidate: true,
                    shouldDirty: true,
                  })
                }
              >
                {t(`tokens.form.quick.${option.label}`)}
              </Button>
            ))}
          </Group>
        </div>
        <Controller
          control={control}
          name="models"
          render={({ field }) =>
            canPickModels ? (
              <MultiSelect
                {...modelsField}
                data={modelOptions}
                searchable
                value={field.value}
                onChange={field.onChange}
              />
            ) : (
              <TagsInput {...modelsField} value={field.value} onChange={field.onChange} />
            )
          }
        />
        <TextInput
          label={t('tokens.form.subnet')}
          description={t('tokens.form.subnetHint')}
          placeholder={t('tokens.form.subnetPlaceholder')}
          {...register('subnet')}
        />
        <Fieldset legend={t('limits.title')} variant="filled">
          <Stack gap="sm">
            <Controller
              control={control}
              name="limits"
              render={({ field }) => (
                <LimitInputs
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.limits?.message ?? null}
                />
              )}
            />
            <Textarea
              label={t('limits.modelLimits')}
              description={t('limits.modelLimitsHint')}
              placeholder='{"gpt-4o": {"rpm_limit": 5, "tpm_limit": 20000}}'
              autosize
              minRows={2}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              error={errors.modelLimits?.message && t(errors.modelLimits.message)}
              {...register('modelLimits')}
            />
          </Stack>
        </Fieldset>
        <FormActions
          backTo="/token"
          backLabel={t('tokens.form.back')}
          submitLabel={t('tokens.form.submit')}
          isSaving={save.isPending}
        />
      </Stack>
    </form>
  );
}
