import { Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { TokenForm } from './token-form';
import { newTokenFormValues, tokenToFormValues } from './token-form-values';
import { tokenQueryOptions } from './tokens-queries';

/** /token/add and /token/edit/{id}: the form is create or edit by the route id. */
export default function TokenEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const tokenId = id ? Number(id) : undefined;
  // Always read fresh: the list may show a status the server has since changed (expired, exhausted).
  const token = useQuery({
    ...tokenQueryOptions(tokenId ?? 0),
    enabled: tokenId !== undefined,
    refetchOnMount: 'always',
  });

  let form = null;
  if (tokenId === undefined) form = <TokenForm initialValues={newTokenFormValues()} />;
  else if (token.data) {
    form = (
      <TokenForm key={token.data.id} initialValues={tokenToFormValues(token.data)} editId={token.data.id} />
    );
  }

  return (
    <>
      <PageTitle title={tokenId === undefined ? t('tokens.form.addTitle') : t('tokens.form.editTitle')} />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={720}>
        {token.isLoading ? <PageLoader /> : form}
      </Paper>
    </>
  );
}
