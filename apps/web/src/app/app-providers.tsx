import type { ReactNode } from 'react';
import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import i18n from '../i18n/i18n';
import { theme } from './theme';

/** The chosen colour scheme (light, dark or the system's) is remembered per browser. */
export const colorSchemeStorageKey = 'gatehouse-color-scheme';
const colorSchemeManager = localStorageColorSchemeManager({ key: colorSchemeStorageKey });

/**
 * `env="test"` (the test renderer's): Mantine draws overlays in place and without transitions, and never hides a
 * dropdown whose anchor it cannot measure — jsdom measures every element as 0 × 0, so an opened menu could
 * otherwise turn invisible once its position is computed, before a test reads it.
 */
export function AppProviders({
  queryClient,
  env = 'default',
  children,
}: {
  queryClient: QueryClient;
  env?: 'default' | 'test';
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider
        theme={theme}
        defaultColorScheme="light"
        colorSchemeManager={colorSchemeManager}
        env={env}
      >
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <Notifications limit={5} />
            {children}
          </ModalsProvider>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}
