import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, failure, mockApi } from '../../test/mock-api';
import { renderApp, testStatus } from '../../test/render-app';

function setUp(path = '/register', status = testStatus()) {
  const fetchMock = mockApi({
    'GET /api/status': envelope(status),
    'POST /api/user/register': envelope(),
  });
  return { fetchMock, ...renderApp(path) };
}

async function fillIn(
  user: ReturnType<typeof setUp>['user'],
  values: { username?: string; password?: string; password2?: string },
) {
  if (values.username) await user.type(await screen.findByLabelText('Username'), values.username);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.password2) await user.type(screen.getByLabelText('Confirm password'), values.password2);
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

describe('register page', () => {
  it('shows the hints for username and password length', async () => {
    setUp();
    expect(await screen.findByText('At most 12 characters')).toBeInTheDocument();
    expect(screen.getByText('8 to 20 characters')).toBeInTheDocument();
  });

  it('requires a username and a password before sending anything', async () => {
    const { user, fetchMock } = setUp();
    await fillIn(user, {});
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/user/register')).toHaveLength(0);
  });

  it('refuses a password shorter than 8 characters', async () => {
    const { user, fetchMock } = setUp();
    await fillIn(user, { username: 'bob', password: 'short', password2: 'short' });
    expect(await screen.findByText('Password length must not be less than 8!')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/user/register')).toHaveLength(0);
  });

  it('refuses two different passwords', async () => {
    const { user, fetchMock } = setUp();
    await fillIn(user, { username: 'bob', password: 'password-1', password2: 'password-2' });
    expect(await screen.findByText('The two passwords entered do not match')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/user/register')).toHaveLength(0);
  });

  it('refuses a username longer than 12 characters', async () => {
    const { user } = setUp();
    await fillIn(user, { username: 'a-much-too-long-name', password: 'password-1', password2: 'password-1' });
    expect(await screen.findByText('Username must be at most 12 characters')).toBeInTheDocument();
  });

  it('registers with the stored invite code and goes to the login page', async () => {
    const { user, fetchMock, router } = setUp('/register?aff=INV1');
    await fillIn(user, { username: 'bob', password: 'password-1', password2: 'password-1' });

    expect(await screen.findByText('Registration successful!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem(StorageKey.aff)).toBe('INV1');
    const [call] = callsTo(fetchMock, 'POST /api/user/register');
    expect(call?.url.searchParams.get('turnstile')).toBe('');
    expect(call?.body).toEqual({
      username: 'bob',
      password: 'password-1',
      password2: 'password-1',
      email: '',
      verification_code: '',
      aff_code: 'INV1',
    });
  });

  it('stays on the page and shows the server message when registration fails', async () => {
    mockApi({
      'GET /api/status': envelope(testStatus()),
      'POST /api/user/register': failure('Username already exists'),
    });
    const { user, router } = renderApp('/register');
    await fillIn(user, { username: 'bob', password: 'password-1', password2: 'password-1' });
    expect(await screen.findByText('Username already exists')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('asks for an e-mail and a code only when e-mail verification is on', async () => {
    setUp('/register', testStatus({ email_verification: true }));
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Verification code')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get code' })).toBeInTheDocument();
  });

  it('hides the e-mail fields when e-mail verification is off', async () => {
    setUp();
    await screen.findByLabelText('Username');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });
});
