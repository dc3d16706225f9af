import { screen, waitFor, render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, failure, jsonResponse, mockApi } from '../test/mock-api';
import { renderApp, testStatus, testUser } from '../test/render-app';
import { api, ApiError } from './client';
import { StorageKey } from './storage';

function renderToasts() {
  render(
    <MantineProvider>
      <Notifications />
    </MantineProvider>,
  );
}

const respondWith = (response: () => Response) => mockApi({ 'GET /api/thing': () => response() });

describe('API client error catalogue', () => {
  beforeEach(() => {
    renderToasts();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });

  it('returns the data of a successful envelope', async () => {
    mockApi({ 'GET /api/thing': envelope({ answer: 42 }) });
    await expect(api.get('/api/thing')).resolves.toEqual({ answer: 42 });
  });

  it('tells the user to slow down on HTTP 429', async () => {
    respondWith(() => jsonResponse(failure('rate limited'), 429));
    await expect(api.get('/api/thing')).rejects.toBeInstanceOf(ApiError);
    expect(await screen.findByText('错误：请求次数过多，请稍后再试！')).toBeInTheDocument();
  });

  it('tells the user to contact the administrator on HTTP 500', async () => {
    respondWith(() => jsonResponse(failure('stack trace'), 500));
    await expect(api.get('/api/thing')).rejects.toMatchObject({ kind: 'http', status: 500 });
    expect(await screen.findByText('错误：服务器内部错误，请联系管理员！')).toBeInTheDocument();
    expect(screen.queryByText(/stack trace/)).not.toBeInTheDocument();
  });

  it('shows the demonstration-site notice as information on HTTP 405', async () => {
    respondWith(() => new Response('', { status: 405 }));
    await expect(api.get('/api/thing')).rejects.toMatchObject({ status: 405 });
    expect(await screen.findByText('本站仅作演示之用，无服务端！')).toBeInTheDocument();
    expect(console.info).toHaveBeenCalledWith(expect.stringContaining('本站仅作演示之用，无服务端！'));
  });

  it('prefixes the server message of any other HTTP error', async () => {
    respondWith(() => jsonResponse(failure('route not found'), 404));
    await expect(api.get('/api/thing')).rejects.toMatchObject({ status: 404 });
    expect(await screen.findByText('错误：route not found')).toBeInTheDocument();
  });

  it('prefixes the status line when the error answer is not JSON', async () => {
    respondWith(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(api.get('/api/thing')).rejects.toMatchObject({ status: 502 });
    expect(await screen.findByText('错误：Bad Gateway')).toBeInTheDocument();
  });

  it('prefixes network failures the same way', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(api.get('/api/thing')).rejects.toMatchObject({ kind: 'network', status: null });
    expect(await screen.findByText('错误：Failed to fetch')).toBeInTheDocument();
  });

  it('shows the server message when the answer says success: false', async () => {
    mockApi({ 'POST /api/thing': failure('username already taken') });
    await expect(api.post('/api/thing', { username: 'bob' })).rejects.toMatchObject({
      kind: 'failure',
      message: 'username already taken',
    });
    expect(await screen.findByText('username already taken')).toBeInTheDocument();
  });

  it('lets a caller handle a failure itself without any toast', async () => {
    mockApi({ 'GET /api/thing': failure('handled by the page') });
    await expect(api.get('/api/thing', { quiet: true })).rejects.toMatchObject({
      message: 'handled by the page',
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('handled by the page')).not.toBeInTheDocument();
  });

  it('sends query parameters, JSON bodies and the session cookie', async () => {
    const fetchMock = mockApi({ 'PUT /api/thing': envelope() });
    await api.put('/api/thing', { id: 1 }, { params: { p: 0, keyword: 'a b', skipped: undefined } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/thing?p=0&keyword=a+b');
    expect(init).toMatchObject({ method: 'PUT', credentials: 'include', body: '{"id":1}' });
  });
});

describe('HTTP 401', () => {
  it('forgets the stored user and shows the login page with the expired notice', async () => {
    localStorage.setItem(StorageKey.user, JSON.stringify(testUser()));
    mockApi({
      'GET /api/status': envelope(testStatus()),
      'GET /api/user/self': () => jsonResponse(failure('no session'), 401),
    });
    const { router } = renderApp('/user/edit');

    expect(
      await screen.findByText('Not logged in or login expired, please log in again!'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?expired=true');
    await waitFor(() => expect(localStorage.getItem(StorageKey.user)).toBeNull());
    expect(screen.queryByRole('button', { name: 'Account menu' })).not.toBeInTheDocument();
  });
});
