import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getStoredUser } from '../../api/session';
import { callsTo, envelope, failure, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';
import { leaveFor } from './leave-for';

vi.mock('./leave-for', () => ({ leaveFor: vi.fn() }));

const allProviders = testStatus({
  github_oauth: true,
  github_client_id: 'Iv1.client',
  github_oauth_base_url: 'http://127.0.0.1:9000',
  wechat_login: true,
  wechat_qrcode: 'https://example.com/qr.png',
  lark_client_id: 'cli_lark',
  server_address: 'https://gate.example.com',
});

function setUp(status = allProviders) {
  const fetchMock = mockApi({
    'GET /api/status': envelope(status),
    'GET /api/oauth/state': envelope('state-123'),
    'GET /api/oauth/wechat': envelope(testUser({ username: 'wx_user' })),
    'GET /api/home_page_content': envelope(''),
    'GET /api/notice': envelope(''),
  });
  return { fetchMock, ...renderApp('/login') };
}

describe('login page: third-party sign-in', () => {
  it('shows no third-party button while the server enables none', async () => {
    setUp(testStatus());
    await screen.findByLabelText('Username or email');
    for (const name of ['GitHub', 'WeChat', 'Lark']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it("opens GitHub's authorise page of the configured base with a fresh state", async () => {
    const { user, fetchMock } = setUp();
    await user.click(await screen.findByRole('button', { name: 'GitHub' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
    expect(callsTo(fetchMock, 'GET /api/oauth/state')).toHaveLength(1);
    expect(vi.mocked(leaveFor).mock.calls[0]?.[0]).toBe(
      'http://127.0.0.1:9000/login/oauth/authorize?client_id=Iv1.client&state=state-123&scope=user%3Aemail',
    );
  });

  it('opens the Lark authorise page in a new window, cut off from this one', async () => {
    const popup = { opener: {} as unknown, location: { href: '' }, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const { user } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Lark' }));
    await waitFor(() => expect(popup.location.href).not.toBe(''));
    expect(open).toHaveBeenCalledTimes(1);
    expect(popup.opener).toBeNull();
    const url = new URL(popup.location.href);
    expect(url.origin + url.pathname).toBe('https://accounts.feishu.cn/open-apis/authen/v1/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe('https://gate.example.com/oauth/lark');
    expect(url.searchParams.get('state')).toBe('state-123');
  });

  it('closes the Lark window again when no state could be had', async () => {
    const popup = { opener: {}, location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    mockApi({ 'GET /api/status': envelope(allProviders), 'GET /api/oauth/state': failure('Too early') });
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Lark' }));
    expect(await screen.findByText('Too early')).toBeInTheDocument();
    expect(popup.close).toHaveBeenCalled();
  });

  it('logs in with the WeChat code from the QR dialog and goes home', async () => {
    const { user, fetchMock, router } = setUp();
    await user.click(await screen.findByRole('button', { name: 'WeChat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log in with WeChat' });
    expect(within(dialog).getByRole('img')).toHaveAttribute('src', 'https://example.com/qr.png');
    expect(within(dialog).getByText(/valid for three minutes/)).toBeInTheDocument();

    // An empty code does nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Log in' }));
    expect(callsTo(fetchMock, 'GET /api/oauth/wechat')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Verification code'), ' 123456 ');
    await user.click(within(dialog).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callsTo(fetchMock, 'GET /api/oauth/wechat')[0]?.url.searchParams.get('code')).toBe('123456');
    expect(getStoredUser()?.username).toBe('wx_user');
  });
});
