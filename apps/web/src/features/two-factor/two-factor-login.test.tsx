import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE, Role } from '@gatehouse/shared';
import { getStoredUser, setStoredUser } from '../../api/session';
import { callsTo, envelope, failure, jsonResponse, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const challenge = envelope({ require_2fa: true }, 'Enter the code from your authenticator app');

function setUp(path: string, routes: Parameters<typeof mockApi>[0] = {}) {
  const fetchMock = mockApi({
    'GET /api/status': envelope(
      testStatus({ wechat_login: true, wechat_qrcode: 'https://example.com/qr.png' }),
    ),
    'GET /api/home_page_content': envelope(''),
    'GET /api/notice': envelope(''),
    ...routes,
  });
  return { fetchMock, ...renderApp(path) };
}

describe('two-factor sign-in in the console', () => {
  it('asks for the code after a correct password, and signs in only with the code', async () => {
    const { user, router, fetchMock } = setUp('/login', {
      'POST /api/user/login': challenge,
      'POST /api/user/login/2fa': ({ body }) =>
        jsonResponse(
          (body as { code: string }).code === '654321'
            ? envelope(testUser({ username: 'alice' }), 'Login successful!')
            : failure('The code is wrong or has already been used'),
        ),
    });
    await user.type(await screen.findByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'password123');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/2fa'));
    expect(getStoredUser()).toBeNull();
    // Six digits send themselves.
    await user.type(await screen.findByLabelText('Code'), '123456');
    expect(await screen.findByText('The code is wrong or has already been used')).toBeInTheDocument();
    expect(getStoredUser()).toBeNull();

    await user.type(screen.getByLabelText('Code'), '654321');
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(getStoredUser()?.username).toBe('alice');
    expect(callsTo(fetchMock, 'POST /api/user/login/2fa').map((call) => call.body)).toEqual([
      { code: '123456' },
      { code: '654321' },
    ]);
  });

  it('takes a recovery code instead', async () => {
    const { user, router, fetchMock } = setUp('/login/2fa', {
      'POST /api/user/login/2fa': envelope(testUser({ username: 'alice' }), 'Login successful!'),
    });
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText('Recovery code'), 'abcde-fghjk');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/token'));
    expect(callsTo(fetchMock, 'POST /api/user/login/2fa')[0]?.body).toEqual({ code: 'abcde-fghjk' });
  });

  it('sends a WeChat sign-in that needs a code to the second step too', async () => {
    const { user, router } = setUp('/login', { 'GET /api/oauth/wechat': challenge });
    await user.click(await screen.findByRole('button', { name: 'WeChat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log in with WeChat' });
    await user.type(within(dialog).getByLabelText('Verification code'), '1234');
    await user.click(within(dialog).getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/2fa'));
    expect(getStoredUser()).toBeNull();
  });

  it('leads an admin whose admin calls are refused for want of two-factor sign-in to Personal settings', async () => {
    setStoredUser(testUser({ role: Role.admin }));
    const { router } = setUp('/channel', {
      'GET /api/channel/': () => jsonResponse(failure(TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE), 403),
      'GET /api/channel': () => jsonResponse(failure(TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE), 403),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    expect(
      await screen.findByText(
        'Administrators must turn on two-factor sign-in first: do it here in Personal settings',
      ),
    ).toBeInTheDocument();
  });
});
