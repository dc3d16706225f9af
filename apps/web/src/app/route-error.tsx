import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown instead of a page that threw or whose code failed to load (for instance after a new deployment). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Stack align="center" py="xl">
      <Alert color="red" icon={<IconAlertTriangle />} maw={560} w="100%">
        {t('common.routeError', { message })}
      </Alert>
      <Button variant="light" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </Stack>
  );
}
