import { useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconExternalLink, IconTicket } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatRemainingQuota } from '@gatehouse/shared';
import { ApiError, showApiError } from '../../api/client';
import { useStatus } from '../../api/status';
import { showError, showInfo, showSuccess } from '../../api/toast';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useQuotaDisplay } from '../users/use-quota-display';
import { selfQueryOptions, userKeys } from '../users/users-queries';
import { buildTopUpUrl, createTransactionId, redeemCode } from './topup-queries';

/** Top-up: the balance, a redemption code field, and the operator's payment link. */
export default function TopupPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useStatus();
  const quotaDisplay = useQuotaDisplay();
  const self = useQuery({ ...selfQueryOptions(), refetchOnMount: 'always' });
  const [code, setCode] = useState('');

  const redeem = useMutation({
    mutationFn: redeemCode,
    onSuccess: (quota) => {
      showSuccess(t('topup.redeemed', { amount: formatRemainingQuota(quota, quotaDisplay) }));
      setCode('');
      void queryClient.invalidateQueries({ queryKey: userKeys.self() });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.kind === 'failure') showError(error.message);
      else if (error instanceof ApiError && (error.kind === 'unauthorized' || error.status === 429)) {
        showApiError(error);
      } else showError(t('topup.requestFailed'));
    },
  });

  const submit = () => {
    const key = code.trim();
    if (key === '') {
      showInfo(t('topup.enterCode'));
      return;
    }
    redeem.mutate(key);
  };

  const openTopUpLink = () => {
    const link = status?.top_up_link;
    if (!link || !self.data) {
      showError(t('topup.noLink'));
      return;
    }
    window.open(buildTopUpUrl(link, self.data, createTransactionId()), '_blank', 'noopener');
  };

  return (
    <>
      <PageTitle title={t('topup.title')} description={t('topup.description')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" maw={960}>
        <Paper withBorder radius="md" p="xl">
          <Stack gap={4}>
            <Text c="dimmed" size="sm">
              {t('topup.remaining')}
            </Text>
            {self.isPending ? (
              <PageLoader />
            ) : (
              <Title order={2} data-testid="topup-balance">
                {self.data ? formatRemainingQuota(self.data.quota, quotaDisplay) : '—'}
              </Title>
            )}
            <Text c="dimmed" size="sm" mt="md">
              {t('topup.linkHint')}
            </Text>
            <Group mt="sm">
              <Button variant="light" leftSection={<IconExternalLink size={16} />} onClick={openTopUpLink}>
                {t('topup.topUp')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="xl">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <Stack gap="sm">
              <TextInput
                label={t('topup.code')}
                placeholder={t('topup.codePlaceholder')}
                leftSection={<IconTicket size={16} />}
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
                autoComplete="off"
              />
              <Group>
                <Button type="submit" loading={redeem.isPending}>
                  {t('topup.redeem')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </SimpleGrid>
    </>
  );
}
