import { TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE, type Envelope } from '@gatehouse/shared';
import i18n from '../i18n/i18n';
import { expireStoredUser } from './session';
import { showError, showInfo } from './toast';

/** Where a 401 sends the visitor ; the login page shows the expired notice for it. */
export const LOGIN_EXPIRED_PATH = '/login?expired=true';

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: QueryParams;
  /** The caller reports errors itself (see `showApiError`): no toast at all. A 401 still redirects. */
  quiet?: boolean;
  signal?: AbortSignal;
}

export interface RequestWithBodyOptions extends RequestOptions {
  body?: unknown;
}

/**
 * - `unauthorized`: HTTP 401, the visitor was sent to the login page;
 * - `http`: any other HTTP error status; `network`: no answer at all;
 * - `failure`: the server answered `success: false` (a business failure, HTTP 200).
 */
export type ApiErrorKind = 'unauthorized' | 'http' | 'network' | 'failure';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    /** The server's message, or the browser's for network errors. */
    message: string,
    /** The text of the console's error catalogue for this error: what the toast shows. */
    readonly userMessage: string,
    /** HTTP status; null when no answer arrived. */
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let navigate: (path: string) => void = (path) => window.location.assign(path);

/** The app hands over its router so a 401 changes route without reloading the page. */
export function setApiNavigator(navigator: (path: string) => void): void {
  navigate = navigator;
}

/** Shows the error catalogue's toast for an error; for callers that passed `quiet` and then decided not to handle it. */
export function showApiError(error: unknown): void {
  if (!(error instanceof ApiError)) {
    showError(
      i18n.t('errors.withMessage', { message: error instanceof Error ? error.message : String(error) }),
    );
    return;
  }
  if (error.kind === 'unauthorized') return;
  if (error.status === 405) showInfo(error.userMessage);
  else showError(error.userMessage);
}

function catalogueMessage(status: number, message: string): string {
  if (status === 429) return i18n.t('errors.tooManyRequests');
  if (status === 500) return i18n.t('errors.serverError');
  if (status === 405) return i18n.t('errors.demoSite');
  return i18n.t('errors.withMessage', { message });
}

/** The path with its query string; params that are undefined or null are left out. */
export function buildUrl(path: string, params: QueryParams = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

async function readErrorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as Partial<Envelope>;
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON (a proxy's error page, for instance): fall back to the status line.
  }
  return response.statusText || `HTTP ${response.status}`;
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof DOMException && error.name === 'AbortError');
}

function fail(error: ApiError, options: RequestOptions): never {
  if (!options.quiet) showApiError(error);
  throw error;
}

/**
 * Sends one management API call and returns the whole envelope, `success: false` included; HTTP and network
 * errors go through the catalogue. Most callers want `api.get/post/put/del`, which unwrap `data`.
 */
async function request<T>(
  method: string,
  path: string,
  options: RequestWithBodyOptions = {},
): Promise<Envelope<T>> {
  const hasBody = options.body !== undefined;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.params), {
      method,
      credentials: 'include',
      headers: hasBody
        ? { Accept: 'application/json', 'Content-Type': 'application/json' }
        : { Accept: 'application/json' },
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (error) {
    if (isAbort(error, options.signal)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return fail(new ApiError('network', message, i18n.t('errors.withMessage', { message }), null), options);
  }

  if (response.status === 401) {
    expireStoredUser();
    navigate(LOGIN_EXPIRED_PATH);
    throw new ApiError('unauthorized', await readErrorMessage(response), '', 401);
  }
  if (!response.ok) {
    const message = await readErrorMessage(response);
    // An admin without two-factor sign-in while the option requires it: off to Personal settings to turn it on.
    if (response.status === 403 && message === TWO_FACTOR_ENROLMENT_REQUIRED_MESSAGE) {
      navigate('/setting');
      return fail(new ApiError('http', message, i18n.t('twoFactor.enrolmentRequired'), 403), options);
    }
    return fail(
      new ApiError('http', message, catalogueMessage(response.status, message), response.status),
      options,
    );
  }
  try {
    return (await response.json()) as Envelope<T>;
  } catch {
    const message = i18n.t('errors.unreadableResponse', { status: response.status });
    return fail(
      new ApiError('http', message, i18n.t('errors.withMessage', { message }), response.status),
      options,
    );
  }
}

/** Like `request`, but a `success: false` answer becomes an `ApiError` of kind `failure` (toasted unless quiet). */
async function requestData<T>(
  method: string,
  path: string,
  options: RequestWithBodyOptions = {},
): Promise<T> {
  const envelope = await request<T>(method, path, options);
  if (!envelope.success) {
    const message = envelope.message || i18n.t('errors.unreadableResponse', { status: 200 });
    return fail(new ApiError('failure', message, message, 200), options);
  }
  return envelope.data as T;
}

export const api = {
  request,
  get: <T>(path: string, options?: RequestOptions) => requestData<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    requestData<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    requestData<T>('PUT', path, { ...options, body }),
  del: <T>(path: string, options?: RequestOptions) => requestData<T>('DELETE', path, options),
};
