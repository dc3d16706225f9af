import type { ReactNode } from 'react';
import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

interface AuthCardProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
  /** Links under the card ("No account yet? Register"). */
  footer?: ReactNode;
}

export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <Center py={{ base: 'md', sm: 48 }}>
      <Stack w="100%" maw={420} gap="md">
        <Stack gap={4} align="center">
          <Title order={2} ta="center">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm" ta="center">
              {subtitle}
            </Text>
          )}
        </Stack>
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
          {children}
        </Paper>
        {footer && (
          <Stack gap={4} align="center">
            {footer}
          </Stack>
        )}
      </Stack>
    </Center>
  );
}

interface AuthCardLinkProps {
  /** the question before the link ("No account yet?") */
  prompt: string;
  to: string;
  label: string;
}

/** One line of the card's footer: a question and the page that answers it. */
export function AuthCardLink({ prompt, to, label }: AuthCardLinkProps) {
  return (
    <Text size="sm" c="dimmed">
      {prompt}{' '}
      <Anchor component={Link} to={to} size="sm">
        {label}
      </Anchor>
    </Text>
  );
}
