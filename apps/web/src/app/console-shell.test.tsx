import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StorageKey } from '../api/storage';
import { envelope, mockApi } from '../test/mock-api';
import { renderApp, testStatus, testUser } from '../test/render-app';

function withServer(status = testStatus()) {
  return mockApi({
    'GET /api/status': envelope(status),
    'GET /api/home_page_content': envelope(''),
    'GET /api/notice': envelope(''),
    'GET /api/user/self': envelope(testUser()),
  });
}

const mainMenu = () => within(screen.getAllByRole('navigation', { name: 'Main navigation' })[0]!);

describe('console shell', () => {
  it('sends an anonymous visitor of a guarded page to the login page, remembering where they were going', async () => {
    withServer();
    const { router } = renderApp('/user/edit?tab=1');
    expect(await screen.findByLabelText('Username or email')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/user/edit', search: '?tab=1' } });
  });

  it('shows the not-found page for an address that is not routed', async () => {
    withServer();
    renderApp('/no/such/page');
    expect(
      await screen.findByText('Page does not exist, please check your browser address'),
    ).toBeInTheDocument();
  });

  it('shows the admin entries of the menu to admins only', async () => {
    withServer();
    localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: 1 })));
    const first = renderApp('/');
    expect(await mainMenu().findByRole('link', { name: 'API keys' })).toBeInTheDocument();
    expect(mainMenu().queryByRole('link', { name: 'Channels' })).not.toBeInTheDocument();
    expect(mainMenu().queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    first.unmount();

    localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: 10 })));
    renderApp('/');
    for (const name of ['Channels', 'Redemption', 'Users', 'Settings', 'Tutorial']) {
      expect(await mainMenu().findByRole('link', { name })).toBeInTheDocument();
    }
  });

  it('offers the chat entry only when a chat link is configured', async () => {
    withServer(testStatus({ chat_link: 'https://chat.example.com' }));
    renderApp('/');
    expect(await mainMenu().findByRole('link', { name: 'Chat' })).toHaveAttribute('href', '/chat');
  });

  it('stores the branding of the server status and shows the system name', async () => {
    withServer(testStatus({ system_name: 'Acme AI', footer_html: '<b>Acme footer</b>' }));
    renderApp('/');
    expect(await screen.findByText('Acme footer')).toBeInTheDocument();
    expect(screen.getAllByText('Acme AI').length).toBeGreaterThan(0);
    expect(localStorage.getItem(StorageKey.systemName)).toBe('Acme AI');
    expect(localStorage.getItem(StorageKey.footerHtml)).toBe('<b>Acme footer</b>');
    expect(document.title).toBe('Acme AI');
  });

  it('renders the custom footer without its scripts and event handlers', async () => {
    withServer(
      testStatus({
        footer_html:
          '<span id="credit" onclick="alert(1)">Hosted by us</span><script>window.pwned = true</script>',
      }),
    );
    renderApp('/');
    const credit = await screen.findByText('Hosted by us');
    expect(credit).not.toHaveAttribute('onclick');
    expect(document.querySelector('footer script')).toBeNull();
  });

  it('falls back to the default credit line and the generic name before the status answers', async () => {
    mockApi({ 'GET /api/status': () => new Promise<Response>(() => {}) });
    renderApp('/about');
    expect(await screen.findByText(/Powered by Gatehouse/)).toBeInTheDocument();
    expect(screen.getAllByText('Gatehouse').length).toBeGreaterThan(0);
  });

  it('announces a new version when the server runs another release than this console', async () => {
    withServer(testStatus({ version: 'v99.0.0' }));
    renderApp('/');
    expect(await screen.findByText(/New version available: v99.0.0/)).toBeInTheDocument();
  });

  it('shows the loading placeholder while a page waits for its content', async () => {
    mockApi({
      'GET /api/status': envelope(testStatus()),
      'GET /api/notice': envelope(''),
      'GET /api/home_page_content': () => new Promise<Response>(() => {}),
    });
    renderApp('/');
    expect(await screen.findByText('loading page ...')).toBeInTheDocument();
  });
});
