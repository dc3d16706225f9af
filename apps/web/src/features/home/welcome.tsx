import { Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconLogin, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStoredUser } from '../../api/session';
import { useBranding, useStatus } from '../../api/status';

/** The home page when the operator has not written one. */
export function Welcome() {
  const { t } = useTranslation();
  const user = useStoredUser();
  const status = useStatus();
  const { systemName } = useBranding();
  const baseUrl = `${(status?.server_address || window.location.origin).replace(/\/+$/, '')}/v1`;
  return (
    <Paper withBorder radius="md" p={{ base: 'lg', sm: 48 }} mt="md">
      <Stack gap="lg" maw={720}>
        <Title order={1} fz={{ base: 28, sm: 40 }}>
          {t('home.welcomeTitle', { systemName })}
        </Title>
        <Text size="lg" fz={{ base: 'md', sm: 'lg' }} c="dimmed">
          {t('home.welcomeText')}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('home.baseUrl')}
          </Text>
          <Code fz="sm" p="sm" block>
            {baseUrl}
          </Code>
        </Stack>
        <Group>
          {user ? (
            <Button component={Link} to="/token" leftSection={<IconKey size={18} />}>
              {t('home.openKeys')}
            </Button>
          ) : (
            <>
              <Button component={Link} to="/login" leftSection={<IconLogin size={18} />}>
                {t('nav.login')}
              </Button>
              <Button
                component={Link}
                to="/register"
                variant="default"
                leftSection={<IconUserPlus size={18} />}
              >
                {t('nav.register')}
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
