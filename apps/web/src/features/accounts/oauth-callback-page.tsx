import { Center, Loader, Stack, Text } from '@mantine/core';
import type { OAuthCallbackProvider } from './accounts-api';
import { useOAuthCallback } from './use-oauth-callback';

/** /oauth/github, /oauth/lark and /oauth/oidc: where the provider sends the browser back with code and state. */
export function OAuthCallbackPage({ provider }: { provider: OAuthCallbackProvider }) {
  const prompt = useOAuthCallback(provider);
  return (
    <Center mih="50vh">
      <Stack align="center" gap="md">
        <Loader />
        <Text role="status" size="lg">
          {prompt}
        </Text>
      </Stack>
    </Center>
  );
}
