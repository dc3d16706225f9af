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

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} defaultColorScheme="light" colorSchemeManager={colorSchemeManager}>
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
