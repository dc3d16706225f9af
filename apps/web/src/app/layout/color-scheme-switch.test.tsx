import { screen } from '@testing-library/react';
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

describe('colour scheme switch', () => {
  it('switches the console to dark, remembers it in this browser, and back to following the system', async () => {
    withServer();
    localStorage.removeItem(colorSchemeStorageKey);
    const first = renderApp('/');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    await first.user.click(await screen.findByRole('button', { name: 'Change colour scheme' }));
    await first.user.click(await screen.findByRole('menuitem', { name: 'Dark' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem(colorSchemeStorageKey)).toBe('dark');
    first.unmount();

    // A new visit of the console in the same browser starts dark.
    document.documentElement.removeAttribute('data-mantine-color-scheme');
    const second = renderApp('/');
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await second.user.click(await screen.findByRole('button', { name: 'Change colour scheme' }));
    await second.user.click(await screen.findByRole('menuitem', { name: 'Follow the system' }));
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
