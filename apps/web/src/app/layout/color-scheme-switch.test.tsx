import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus } from '../../test/render-app';
import { colorSchemeStorageKey } from '../app-providers';

function withServer() {
  return mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/home_page_content': envelope(''),
    'GET /api/notice': envelope(''),
  });
}

/**
 * Opens the header's scheme menu and picks `choice`. The header may render again while the status loads (on a busy
 * machine after the first click), closing a menu opened too early, so the click is repeated until the item shows —
 * but only while no menu is open: a click on the button of an open (slowly drawn) menu would close it again.
 */
async function pickScheme(user: UserEvent, choice: string) {
  for (let attempt = 1; ; attempt += 1) {
    if (screen.queryByRole('menu') === null) {
      await user.click(screen.getByRole('button', { name: 'Change colour scheme' }));
    }
    const item = await screen
      .findByRole('menuitem', { name: choice }, { timeout: 4_000 })
      .catch((error: unknown) => {
        if (attempt === 3) throw error;
        return null;
      });
    if (item) return user.click(item);
  }
}

describe('colour scheme switch', () => {
  it('switches the console to dark, remembers it in this browser, and back to following the system', async () => {
    withServer();
    localStorage.removeItem(colorSchemeStorageKey);
    const first = renderApp('/');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    await screen.findByRole('button', { name: 'Change colour scheme' });
    await pickScheme(first.user, 'Dark');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem(colorSchemeStorageKey)).toBe('dark');
    first.unmount();

    // A new visit of the console in the same browser starts dark.
    document.documentElement.removeAttribute('data-mantine-color-scheme');
    const second = renderApp('/');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await screen.findByRole('button', { name: 'Change colour scheme' });
    await pickScheme(second.user, 'Follow the system');
    expect(localStorage.getItem(colorSchemeStorageKey)).toBe('auto');
    // The test browser reports no dark preference, so "the system" resolves to light.
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  it('offers the same choice in the mobile menu', async () => {
    withServer();
    localStorage.removeItem(colorSchemeStorageKey);
    const view = renderApp('/');
    await view.user.click(await screen.findByRole('button', { name: 'Toggle navigation' }));
    await view.user.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem(colorSchemeStorageKey)).toBe('dark');
  });
});
