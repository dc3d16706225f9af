import { NumberInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, type FieldErrors, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  NEW_REDEMPTION_DEFAULT_COUNT,
  NEW_REDEMPTION_DEFAULT_QUOTA,
  REDEMPTION_MAX_COUNT,
  REDEMPTION_NAME_MAX_LENGTH,
  type Redemption,
} from '@gatehouse/shared';
import { showSuccess } from '../../api/toast';
import { translateError } from '../../components/translate-error';
import { QuotaInput } from '../users/quota-input';
import { downloadTextFile, safeFileName } from './download-text-file';
import { createRedemptions, redemptionKeys, updateRedemption } from './redemptions-queries';
import { FormActions } from '../../components/form-actions';

export interface RedemptionFormValues {
  name: string;
  quota: number | string;
  count: number | string;
}

/** A new batch defaults to quota 100 000 and one code. */
export const newRedemptionFormValues = (): RedemptionFormValues => ({
  name: '',
  quota: NEW_REDEMPTION_DEFAULT_QUOTA,
  count: NEW_REDEMPTION_DEFAULT_COUNT,
});

export const redemptionToFormValues = (redemption: Redemption): RedemptionFormValues => ({
  name: redemption.name,
  quota: redemption.quota,
  count: 1,
});

const isWholeNumber = (value: number | string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  value !== '' && Number.isInteger(Number(value)) && Number(value) >= min && Number(value) <= max;

function createResolver(isCreate: boolean): Resolver<RedemptionFormValues> {
  return async (values) => {
    const errors: Record<string, { type: string; message: string }> = {};
    const name = values.name.trim();
    if (name === '') errors.name = { type: 'validate', message: 'redemptions.form.nameRequired' };
    else if (name.length > REDEMPTION_NAME_MAX_LENGTH) {
      errors.name = { type: 'validate', message: 'redemptions.form.nameTooLong' };
    }
    if (!isWholeNumber(values.quota, 1))
      errors.quota = { type: 'validate', message: 'redemptions.form.quotaInvalid' };
    if (isCreate && !isWholeNumber(values.count, 1, REDEMPTION_MAX_COUNT)) {
      errors.count = { type: 'validate', message: 'redemptions.form.countInvalid' };
    }
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    return { values: {}, errors: errors as FieldErrors<RedemptionFormValues> };
  };
}

interface RedemptionFormProps {
  initialValues: RedemptionFormValues;
  editId?: number;
}

/** Redemption form. A new batch downloads as `{name}.txt`, one code per line, and the form resets. */
export function RedemptionForm({ initialValues, editId }: RedemptionFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isCreate = editId === undefined;
  const { control, register, handleSubmit, reset, formState } = useForm<RedemptionFormValues>({
    defaultValues: initialValues,
    resolver: createResolver(isCreate),
  });
  const { errors } = formState;

  const save = useMutation({
    mutationFn: async (values: RedemptionFormValues) => {
      const name = values.name.trim();
      if (!isCreate) {
        await updateRedemption({ id: editId, name, quota: Number(values.quota) });
        return null;
      }
      const codes = await createRedemptions({
        name,
        quota: Number(values.quota),
        count: Number(values.count),
      });
      return { name, codes };
    },
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: redemptionKeys.all });
      if (created) {
        showSuccess(t('redemptions.message.created', { count: created.codes.length }));
        downloadTextFile(
          `${safeFileName(created.name, 'redemption-codes')}.txt`,
          `${created.codes.join('\n')}\n`,
        );
        reset(newRedemptionFormValues());
      } else {
        showSuccess(t('redemptions.message.updated'));
        void navigate('/redemption');
      }
    },
  });

  return (
    <form onSubmit={handleSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('redemptions.form.name')}
          placeholder={t('redemptions.form.namePlaceholder')}
          withAsterisk
          error={translateError(t, errors.name)}
          {...register('name')}
        />
        <Controller
          control={control}
          name="quota"
          render={({ field }) => (
            <QuotaInput
              label={t('redemptions.form.quota')}
              hint={({ amount }) => t('redemptions.form.quotaHint', { amount })}
              min={1}
              step={100000}
              error={translateError(t, errors.quota)}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
            />
          )}
        />
        {isCreate && (
          <Controller
            control={control}
            name="count"
            render={({ field }) => (
              <NumberInput
                label={t('redemptions.form.count')}
                description={t('redemptions.form.countHint')}
                min={1}
                max={REDEMPTION_MAX_COUNT}
                allowDecimal={false}
                allowNegative={false}
                error={translateError(t, errors.count)}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              />
            )}
          />
        )}
        <FormActions
          backTo="/redemption"
          backLabel={t('redemptions.form.back')}
          submitLabel={t('redemptions.form.submit')}
          isSaving={save.isPending}
        />
      </Stack>
    </form>
  );
}
