import { Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { SelfEditForm } from './self-edit-form';
import { selfQueryOptions } from './users-queries';

export default function SelfEditPage() {
  const { t } = useTranslation();
  const { data: user, isPending } = useQuery(selfQueryOptions());
  return (
    <>
      <PageTitle title={t('users.self.title')} description={t('users.self.boundAccountsHint')} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={760}>
        {isPending ? <PageLoader /> : user && <SelfEditForm user={user} />}
      </Paper>
    </>
  );
}
