import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getStoredUser } from '../../api/session';
import { callsTo, envelope, failure, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';
import { leaveFor } from './leave-for';

vi.mock('./leave-for', () => ({ leaveFor: vi.fn() }));

const authorizeUrl = 'https://idp.example.com/authorize?client_id=gate&state=st&nonce=n&code_challenge=c';

describe('OIDC sign-in in the console', () => {
  it('shows no OIDC button while the server has it off', async () => {
    mockApi({ 'GET /api/status': envelope(testStatus()), 'GET /api/notice': envelope('') });
    renderApp('/login');
    await screen.findByLabelText('Username or email');
    expect(screen.queryByRole('button', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('sends this window to the authorisation URL the server answered', async () => {
    const fetchMock = mockApi({
      'GET /api/status': envelope(testStatus({ oidc: true, oidc_provider_name: 'Company SSO' })),
      'GET /api/oauth/oidc/start': envelope(authorizeUrl),
      'GET /api/notice': envelope(''),
    });
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with Company SSO' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledWith(authorizeUrl));
    expect(callsTo(fetchMock, 'GET /api/oauth/oidc/start')).toHaveLength(1);
  });

  it('shows the refusal when the provider cannot be reached', async () => {
    mockApi({
      'GET /api/status': envelope(testStatus({ oidc: true, oidc_provider_name: 'Company SSO' })),
      'GET /api/oauth/oidc/start': failure(
        'Could not read the OIDC provider’s discovery document; please retry later',
      ),
      'GET /api/notice': envelope(''),
    });
    const { user } = renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with Company SSO' }));
    expect(await screen.findByText(/discovery document/)).toBeInTheDocument();
  });

  it('completes the sign-in on /oauth/oidc with the code and state', async () => {
    const fetchMock = mockApi({
      'GET /api/status': envelope(testStatus({ oidc: true })),
      'GET /api/oauth/oidc': envelope(testUser({ username: 'alice' })),
      'GET /api/user/self': envelope(testUser({ username: 'alice' })),
      'GET /api/user/available_models': envelope([]),
      'GET /api/notice': envelope(''),
      'GET /api/home_page_content': envelope(''),
    });
    const { router } = renderApp('/oauth/oidc?code=oidc-code&state=st-9');
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(getStoredUser()?.username).toBe('alice');
    const calls = callsTo(fetchMock, 'GET /api/oauth/oidc');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ code: 'oidc-code', state: 'st-9' });
  });
});
