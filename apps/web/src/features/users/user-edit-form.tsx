import { Fieldset, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { User } from '@gatehouse/shared';
import { showSuccess } from '../../api/toast';
import { LimitInputs } from '../../components/limits/limit-inputs';
import { toLimitFields, toLimitFormValues } from '../../components/limits/limit-form-values';
import { translateError } from '../../components/translate-error';
import { GroupInput } from './group-input';
import { splitGroupList } from './group-list';
import { QuotaInput } from './quota-input';
import { editUserFormSchema, type EditUserFormValues } from './user-form-schema';
import { updateUser, userKeys } from './users-queries';
import { BoundAccountFields, ReadOnlyField } from './read-only-fields';
import { FormActions } from '../../components/form-actions';

export function UserEditForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<EditUserFormValues>({
    resolver: zodResolver(editUserFormSchema),
    defaultValues: {
      display_name: user.display_name,
      password: '',
      groups: splitGroupList(user.group),
      quota: user.quota,
      limits: toLimitFormValues(user),
    },
  });
  const mutation = useMutation({
    mutationFn: (values: EditUserFormValues) =>
      updateUser({
        id: user.id,
        display_name: values.display_name,
        password: values.password,
        group: values.groups.join(','),
        quota: values.quota,
        ...toLimitFields(values.limits),
      }),
    onSuccess: () => {
      showSuccess(t('users.edit.success'));
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.groups() });
      void navigate('/user');
    },
  });

  return (
    <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="md">
        <ReadOnlyField label={t('users.form.username')} value={user.username} />
        <TextInput
          label={t('users.form.displayName')}
          autoComplete="off"
          error={translateError(t, errors.display_name)}
          {...register('display_name')}
        />
        <PasswordInput
          label={t('users.form.password')}
          description={t('users.form.newPasswordHint')}
          autoComplete="new-password"
          error={translateError(t, errors.password)}
          {...register('password')}
        />
        <Controller
          control={control}
          name="groups"
          render={({ field }) => (
            <GroupInput
              value={field.value}
              onChange={field.onChange}
              error={errors.groups?.message && t(errors.groups.message)}
            />
          )}
        />
        <Controller
          control={control}
          name="quota"
          render={({ field }) => (
            <QuotaInput
              label={t('users.form.quota')}
              hint={(shown) => t('users.form.quotaPreview', shown)}
              min={0}
              step={500000}
              value={field.value}
              onChange={(value) => field.onChange(typeof value === 'number' ? value : Number.NaN)}
              error={translateError(t, errors.quota)}
            />
          )}
        />
        <Fieldset legend={t('limits.title')} variant="filled">
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
        </Fieldset>
        <BoundAccountFields user={user} />
        <FormActions
          backTo="/user"
          backLabel={t('users.form.cancel')}
          submitLabel={t('users.edit.submit')}
          isSaving={mutation.isPending}
        />
      </Stack>
    </form>
  );
}
