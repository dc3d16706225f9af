import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { User } from '@gatehouse/shared';
import { getStoredUser, setStoredUser } from '../../api/session';
import { showSuccess } from '../../api/toast';
import { translateError } from '../../components/translate-error';
import { selfEditFormSchema, type SelfEditFormValues } from './self-edit-form-schema';
import { updateSelf, userKeys } from './users-queries';
import { BoundAccountFields, ReadOnlyField } from './read-only-fields';

export function SelfEditForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors },
  } = useForm<SelfEditFormValues>({
    resolver: zodResolver(selfEditFormSchema),
    defaultValues: { display_name: user.display_name, password: '' },
  });

  const mutation = useMutation({
    mutationFn: updateSelf,
    onSuccess: (_data, update) => {
      showSuccess(t('users.self.success'));
      resetField('password');
      const stored = getStoredUser();
      if (stored) setStoredUser({ ...stored, display_name: update.display_name });
      void queryClient.invalidateQueries({ queryKey: userKeys.self() });
    },
  });

  return (
    <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="md">
        <ReadOnlyField label={t('users.self.username')} value={user.username} />
        <TextInput
          label={t('users.self.displayName')}
          autoComplete="nickname"
          error={translateError(t, errors.display_name)}
          {...register('display_name')}
        />
        <PasswordInput
          label={t('users.self.password')}
          description={t('users.self.passwordHint')}
          autoComplete="new-password"
          error={translateError(t, errors.password)}
          {...register('password')}
        />
        <BoundAccountFields user={user} />
        <Group justify="flex-end">
          <Button type="submit" loading={mutation.isPending}>
            {t('users.self.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
