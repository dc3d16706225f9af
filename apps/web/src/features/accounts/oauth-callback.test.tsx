import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getStoredUser } from '../../api/session';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, failure, jsonResponse, mockApi, type ApiRoutes } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const callback = '/oauth/github?code=gh-code&state=st-1';
const networkDown = () => {
  throw new TypeError('Failed to fetch');
};

function setUp(oauth: ApiRoutes[string], path = callback) {
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus({ github_oauth: true })),
    'GET /api/oauth/github': oauth,
    'GET /api/oauth/lark': oauth,
    'GET /api/user/self': envelope(testUser({ github_id: '4242' })),
    'GET /api/user/available_models': envelope([]),
  });
  return { fetchMock, ...renderApp(path) };
}

/** Answers each call with the next handler in turn. */
function inTurn(...answers: Array<() => Response>) {
  let index = 0;
  return () => answers[Math.min(index++, answers.length - 1)]!();
}

describe('OAuth callback pages', () => {
  it('logs the visitor in with the returned user and goes home, sending the code and state once', async () => {
    const { fetchMock, router } = setUp(envelope(testUser({ username: 'octocat' })));
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(getStoredUser()?.username).toBe('octocat');
    const calls = callsTo(fetchMock, 'GET /api/oauth/github');
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ code: 'gh-code', state: 'st-1' });
  });

  it('goes to the settings after binding (message "bind")', async () => {
    localStorage.setItem(StorageKey.user, JSON.stringify(testUser()));
    const { router } = setUp(envelope(testUser(), 'bind'));
    expect(await screen.findByText('GitHub account bound successfully!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/setting'));
    expect(await screen.findByDisplayValue('4242')).toBeInTheDocument();
  });

  it('uses the Lark endpoint on /oauth/lark', async () => {
    const { fetchMock, router } = setUp(envelope(testUser()), '/oauth/lark?code=lk&state=st-2');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(callsTo(fetchMock, 'GET /api/oauth/lark')[0]?.url.searchParams.get('code')).toBe('lk');
  });

  it('shows a refusal and redirects at once: the spent state cannot be retried', async () => {
    const refusal = 'The state is missing, wrong or expired; please start the sign-in again';
    const { fetchMock, router } = setUp(failure(refusal));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    // /setting, whose guard sends a visitor on to the login page.
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getStoredUser()).toBeNull();
    await act(() => vi.advanceTimersByTime(20_000));
    expect(callsTo(fetchMock, 'GET /api/oauth/github')).toHaveLength(1);
  });

  it('retries a request that got no answer after 2 s × N, saying error occurred, retry N', async () => {
    const { fetchMock, router } = setUp(
      inTurn(networkDown, networkDown, () => jsonResponse(envelope(testUser({ username: 'octocat' })))),
    );
    const calls = () => callsTo(fetchMock, 'GET /api/oauth/github').length;

    expect(await screen.findByText('error occurred, retry 1')).toBeInTheDocument();
    expect(calls()).toBe(1);
    await act(() => vi.advanceTimersByTime(1900));
    expect(calls()).toBe(1);
    await act(() => vi.advanceTimersByTime(100));
    await waitFor(() => expect(calls()).toBe(2));

    expect(await screen.findByText('error occurred, retry 2')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTime(3900));
    expect(calls()).toBe(2);
    await act(() => vi.advanceTimersByTime(100));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls()).toBe(3);
    expect(getStoredUser()?.username).toBe('octocat');
  });

  it('gives up after three retries and redirects', async () => {
    const { fetchMock, router } = setUp(() => jsonResponse({ success: false, message: 'bad gateway' }, 502));
    expect(await screen.findByText('error occurred, retry 1')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTime(2000));
    expect(await screen.findByText('error occurred, retry 2')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTime(4000));
    expect(await screen.findByText('error occurred, retry 3')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTime(6000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(callsTo(fetchMock, 'GET /api/oauth/github')).toHaveLength(4);
  });

  it('stops retrying once the visitor has left the page', async () => {
    const { fetchMock, router } = setUp(networkDown);
    expect(await screen.findByText('error occurred, retry 1')).toBeInTheDocument();
    await act(() => router.navigate('/about'));
    await waitFor(() => expect(screen.queryByText('error occurred, retry 1')).not.toBeInTheDocument());
    await act(() => vi.advanceTimersByTime(30_000));
    expect(callsTo(fetchMock, 'GET /api/oauth/github')).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/about');
  });
});
