import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { statusQueryOptions } from '../../api/status';
import { showNotice } from '../../api/toast';

const normalizeVersion = (version: string) => version.trim().replace(/^v/i, '');

// Once per page load: the status is refetched now and then, and the notice would otherwise come back each time.
let notifiedVersion: string | null = null;

/** A notice when the server runs another version than the one this console was built from. */
export function useNewVersionNotice(): void {
  const { t } = useTranslation();
  const { data: status } = useQuery(statusQueryOptions());
  const serverVersion = status?.version ? normalizeVersion(status.version) : '';

  useEffect(() => {
    // Development builds report no version or 0.0.0; there is nothing to compare against.
    if (!serverVersion || serverVersion === '0.0.0' || serverVersion === notifiedVersion) return;
    if (serverVersion === normalizeVersion(__APP_VERSION__)) return;
    notifiedVersion = serverVersion;
    showNotice(t('common.newVersion', { version: status?.version }));
  }, [serverVersion, status?.version, t]);
}
