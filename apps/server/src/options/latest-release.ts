import { request } from '../http/undici-client';
import type { LatestRelease } from '@gatehouse/shared';
import { fail } from '../http/envelope';

export const RELEASE_CHECK_TIMEOUT_MS = 5000;

interface ReleaseBody {
  tag_name?: unknown;
  name?: unknown;
  html_url?: unknown;
  body?: unknown;
  published_at?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const withoutV = (version: string): string => version.trim().replace(/^v/i, '');

function describeFailure(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError' || error.name === 'AbortError' || /timeout/i.test(error.name)) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  return error.message;
}

async function requestRelease(
  url: string,
  timeoutMs: number,
): Promise<{ statusCode: number; payload: unknown }> {
  const response = await request(url, {
    headers: { accept: 'application/vnd.github+json', 'user-agent': 'gatehouse-update-check' },
    signal: AbortSignal.timeout(timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  if (response.statusCode !== 200) {
    await response.body.dump();
    return { statusCode: response.statusCode, payload: null };
  }
  return { statusCode: 200, payload: await response.body.json() };
}

/**
 * Reads the newest release from a GitHub-style releases endpoint (one release, or a list whose first entry is the
 * newest) and compares it with the running version. Unreachable, slow or odd answers fail with a clear message
 * within `timeoutMs`, never a hang.
 */
export async function fetchLatestRelease(
  url: string,
  currentVersion: string,
  timeoutMs = RELEASE_CHECK_TIMEOUT_MS,
): Promise<LatestRelease> {
  const answer = await requestRelease(url, timeoutMs).catch((error: unknown) =>
    fail(
      `Could not check for updates: the releases endpoint ${url} could not be read (${describeFailure(error, timeoutMs)})`,
    ),
  );
  if (answer.statusCode !== 200) {
    fail(`Could not check for updates: the releases endpoint answered HTTP ${answer.statusCode}`);
  }
  const release = (Array.isArray(answer.payload) ? answer.payload[0] : answer.payload) as ReleaseBody | null;
  const tag = text(release?.tag_name);
  if (!tag) fail('Could not check for updates: the releases endpoint answered no release tag');
  return {
    tag_name: tag,
    name: text(release?.name) || tag,
    html_url: text(release?.html_url),
    body: text(release?.body),
    published_at: text(release?.published_at),
    current_version: currentVersion,
    is_latest: withoutV(tag) === withoutV(currentVersion),
  };
}
