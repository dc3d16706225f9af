import { Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { RedemptionForm, newRedemptionFormValues, redemptionToFormValues } from './redemption-form';
import { redemptionQueryOptions } from './redemptions-queries';

/** /redemption/add and /redemption/edit/{id}. */
export default function RedemptionEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const redemptionId = id ? Number(id) : undefined;
  const redemption = useQuery({
    ...redemptionQueryOptions(redemptionId ?? 0),
    enabled: redemptionId !== undefined,
  });

  let form = null;
  if (redemptionId === undefined) form = <RedemptionForm initialValues={newRedemptionFormValues()} />;
  else if (redemption.data) {
    form = (
      <RedemptionForm
        key={redemption.data.id}
        initialValues={redemptionToFormValues(redemption.data)}
        editId={redemption.data.id}
      />
    );
  }

  return (
    <>
      <PageTitle
        title={redemptionId === undefined ? t('redemptions.form.addTitle') : t('redemptions.form.editTitle')}
      />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={720}>
        {redemption.isLoading ? <PageLoader /> : form}
      </Paper>
    </>
  );
}
