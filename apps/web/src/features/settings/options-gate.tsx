import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isRootRole } from '@gatehouse/shared';
import { useStoredUser } from '../../api/session';
import { PageLoader } from '../../components/page-loader';
import { optionsQueryOptions, type OptionValues } from './options-queries';

/**
 * The server lets only the super admin read and write options. An admin still sees the tabs with
 * the parts it may use (log clearing, update check) and this notice instead of the option fields.
 */
export function OptionsGate({ children }: { children: (options: OptionValues) => ReactNode }) {
  const { t } = useTranslation();
  const user = useStoredUser();
  const isRoot = user !== null && isRootRole(user.role);
  const { data: options, error, isPending } = useQuery({ ...optionsQueryOptions(), enabled: isRoot });
  if (!isRoot) {
    return (
      <Alert color="gray" icon={<IconLock size={18} />}>
        {t('settings.rootOnly')}
      </Alert>
    );
  }
  if (error) return <Alert color="red">{error.message}</Alert>;
  if (isPending) return <PageLoader />;
  return <>{children(options)}</>;
}
