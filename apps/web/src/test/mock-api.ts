import { vi } from 'vitest';

type Handler = (request: { url: URL; body: unknown }) => Response | Promise<Response>;
/** Keys are 'METHOD /path' (query string excluded); values are envelopes or handlers for anything else. */
export type ApiRoutes = Record<string, object | Handler>;

export const envelope = (data: unknown = null, message = '') => ({ success: true, message, data });
export const failure = (message: string) => ({ success: false, message });

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Replaces `fetch` with the given routes; unknown paths answer the server's 404 envelope. */
export function mockApi(routes: ApiRoutes) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const route = routes[key];
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (typeof route === 'function') return route({ url, body });
    if (route) return jsonResponse(route);
    return jsonResponse(failure(`no route ${key}`), 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made to `METHOD /path`, with their parsed URL and JSON body. */
export function callsTo(fetchMock: ReturnType<typeof mockApi>, key: string) {
  return fetchMock.mock.calls
    .map(([input, init]) => ({
      method: init?.method ?? 'GET',
      url: new URL(String(input), 'http://localhost'),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }))
    .filter((call) => `${call.method} ${call.url.pathname}` === key);
}
