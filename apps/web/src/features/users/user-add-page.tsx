import { Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../api/toast';
import { PageTitle } from '../../components/page-title';
import { translateError } from '../../components/translate-error';
import { addUserFormSchema, type AddUserFormValues } from './user-form-schema';
import { createUser, userKeys } from './users-queries';
import { FormActions } from '../../components/form-actions';

export default function UserAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AddUserFormValues>({
    resolver: zodResolver(addUserFormSchema),
    defaultValues: { username: '', display_name: '', password: '' },
  });
  const mutation = useMutation({
    mutationFn: createUser,
    onSuccess: () => {
      showSuccess(t('users.add.success'));
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      void navigate('/user');
    },
  });

  return (
    <>
      <PageTitle title={t('users.add.title')} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={760}>
        <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('users.form.username')}
              description={t('users.form.usernameHint')}
              autoComplete="off"
              required
              error={translateError(t, errors.username)}
              {...register('username')}
            />
            <TextInput
              label={t('users.form.displayName')}
              autoComplete="off"
              error={translateError(t, errors.display_name)}
              {...register('display_name')}
            />
            <PasswordInput
              label={t('users.form.password')}
              description={t('users.form.passwordHint')}
              autoComplete="new-password"
              required
              error={translateError(t, errors.password)}
              {...register('password')}
            />
            <FormActions
              backTo="/user"
              backLabel={t('users.form.cancel')}
              submitLabel={t('users.add.submit')}
              isSaving={mutation.isPending}
            />
          </Stack>
        </form>
      </Paper>
    </>
  );
}
