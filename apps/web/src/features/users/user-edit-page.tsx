import { Alert, Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { ResetTwoFactorButton } from '../two-factor/reset-two-factor-button';
import { UserEditForm } from './user-edit-form';
import { userQueryOptions } from './users-queries';

export default function UserEditPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const isValidId = Number.isInteger(id) && id > 0;
  const { data: user, isPending, error } = useQuery({ ...userQueryOptions(id), enabled: isValidId });
  return (
    <>
      <PageTitle title={t('users.edit.title')} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={760}>
        {!isValidId || error ? (
          <Alert color="red">{error?.message ?? t('users.edit.notFound')}</Alert>
        ) : isPending ? (
          <PageLoader />
        ) : (
          <>
            <UserEditForm key={user.id} user={user} />
            <ResetTwoFactorButton user={user} />
          </>
        )}
      </Paper>
    </>
  );
}
