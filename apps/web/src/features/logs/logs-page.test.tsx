import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogType, type Log } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const cachedClaude: Log = {
  id: 7,
  user_id: 2,
  username: 'alice',
  type: LogType.consume,
  content: 'model ratio 1.5, completion ratio 4, cache read ratio 0.1, cache write ratio 1.25, group ratio 1',
  token_name: 'work',
  model_name: 'claude-sonnet-4-5',
  prompt_tokens: 4700,
  completion_tokens: 800,
  quota: 7988,
  channel: 3,
  elapsed_time: 1234,
  is_stream: true,
  created_at: 1_700_000_000,
  request_id: 'req-abc123',
  cache_read_tokens: 3000,
  cache_write_tokens: 500,
  reasoning_tokens: 300,
  audio_input_tokens: 0,
  image_input_tokens: 0,
  audio_output_tokens: 0,
  image_output_tokens: 0,
  inbound_protocol: 'anthropic-messages',
  model_ratio: 1.5,
  completion_ratio: 4,
  cache_read_ratio: 0.1,
  cache_write_ratio: 1.25,
  audio_input_ratio: 1,
  image_input_ratio: 1,
  audio_output_ratio: 1,
  image_output_ratio: 1,
  group_ratio: 1,
  call_price: 0,
  first_token_ms: 412,
  retries: [
    { channel: 5, error: '429 rate limited by the upstream' },
    { channel: 8, error: 'upstream timed out' },
  ],
};

const olderEntry: Log = {
  ...cachedClaude,
  id: 6,
  created_at: 1_699_000_000,
  request_id: '',
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  audio_input_tokens: 0,
  image_input_tokens: 0,
  audio_output_tokens: 0,
  image_output_tokens: 0,
  inbound_protocol: '',
  model_ratio: 0,
  completion_ratio: 0,
  cache_read_ratio: 0,
  cache_write_ratio: 0,
  audio_input_ratio: 1,
  image_input_ratio: 1,
  audio_output_ratio: 1,
  image_output_ratio: 1,
  group_ratio: 0,
  call_price: 0,
  first_token_ms: 0,
  retries: [],
  content: 'model ratio 1.25, completion ratio 4, group ratio 1',
};

function setUp(role = 1) {
  localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role })));
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/log/self/': envelope([cachedClaude, olderEntry]),
    'GET /api/log/self/stat': envelope({ quota: 7988 }),
    'GET /api/log/': envelope([cachedClaude, olderEntry]),
    'GET /api/log/stat': envelope({ quota: 7988 }),
  });
  return { ...renderApp('/log'), fetchMock };
}

/** The links the page clicked to download (the browser saves them; jsdom only records the click). */
function recordDownloads() {
  const clicked: Array<{ href: string; download: string }> = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
  return clicked;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CSV export', () => {
  it("downloads the streamed export of the own rows with the form's filters, no rows read by the page", async () => {
    const { user, fetchMock } = setUp();
    const downloads = recordDownloads();
    await screen.findAllByText('claude-sonnet-4-5', undefined, { timeout: 15_000 });
    await user.type(screen.getByLabelText('Model name'), 'gpt-4o');
    await user.type(screen.getByLabelText('Key name'), 'work');
    const listReads = fetchMock.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    expect(downloads).toHaveLength(1);
    const url = new URL(downloads[0]!.href);
    expect(url.pathname).toBe('/api/log/self/export');
    expect(url.searchParams.get('model_name')).toBe('gpt-4o');
    expect(url.searchParams.get('token_name')).toBe('work');
    expect(url.searchParams.get('type')).toBe('0');
    expect(Number(url.searchParams.get('end_timestamp'))).toBeGreaterThan(Date.now() / 1000);
    // No cap of the console's own: the page asks for no rows, the browser streams the whole answer to disk.
    expect(url.searchParams.has('num')).toBe(false);
    expect(fetchMock.mock.calls.length).toBe(listReads);
    // A download link: the server's Content-Disposition names the file.
    expect(downloads[0]!.download).toBe('');
    expect(await screen.findByText(/Export started/)).toBeInTheDocument();
  });

  it("downloads everyone's rows for an admin, with the username and channel filters", async () => {
    const { user } = setUp(10);
    const downloads = recordDownloads();
    await screen.findAllByText('claude-sonnet-4-5', undefined, { timeout: 15_000 });
    await user.type(screen.getByLabelText('Username'), 'alice');
    await user.type(screen.getByLabelText('Channel ID'), '3');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    const url = new URL(downloads[0]!.href);
    expect(url.pathname).toBe('/api/log/export');
    expect(url.searchParams.get('username')).toBe('alice');
    expect(url.searchParams.get('channel')).toBe('3');
  });
});

describe('log detail', () => {
  it('opens a drawer with the itemised usage, the ratios and the charge written out', async () => {
    const { user } = setUp();
    const [newest] = await screen.findAllByText('claude-sonnet-4-5', undefined, { timeout: 15_000 });
    await user.click(newest.closest('tr')!);
    const drawer = await screen.findByRole('dialog', { name: 'Log entry' });
    const value = (label: string) => within(drawer).getByText(label).closest('tr')!.lastChild!.textContent;
    expect(value('Prompt tokens, fresh')).toBe('1,200');
    expect(value('Prompt tokens read from the cache')).toBe('3,000');
    expect(value('Prompt tokens written to the cache')).toBe('500');
    expect(value('Completion tokens')).toBe('800');
    expect(value('of which reasoning')).toBe('300');
    expect(value('Cache read ratio')).toBe('× 0.1');
    expect(value('Cache write ratio')).toBe('× 1.25');
    expect(within(drawer).getByTestId('log-charge-arithmetic')).toHaveTextContent(
      '(1,200 + 3,000 × 0.1 + 500 × 1.25 + 800 × 4) × 1.5 × 1 = 7,987.5 → 7,988',
    );
    expect(value('Client API')).toBe('Anthropic Messages');
    expect(value('Stream')).toBe('Yes');
    expect(value('Elapsed time')).toBe('1,234 ms');
    expect(value('Request ID')).toBe('req-abc123');
    expect(value('Time to first byte')).toBe('412 ms');
    expect(value('Attempts')).toBe('3 (retried on another channel 2 times)');
    expect(within(drawer).getByText('Channels that failed first')).toBeInTheDocument();
    expect(within(drawer).getByText('429 rate limited by the upstream')).toBeInTheDocument();
    expect(within(drawer).getByText('upstream timed out')).toBeInTheDocument();
    // A user's own view does not name channels, as the table does not.
    expect(within(drawer).queryByText('Channel')).toBeNull();
  });

  it('opens from the keyboard and says when an entry predates the itemised charges', async () => {
    const { user } = setUp();
    await screen.findAllByText('claude-sonnet-4-5', undefined, { timeout: 15_000 });
    const older = screen.getByRole('row', { name: /Details of the entry at 2023-11-03/ });
    older.focus();
    await user.keyboard('{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Log entry' });
    expect(within(drawer).getByText(/written before the log itemised charges/)).toBeInTheDocument();
    expect(within(drawer).queryByTestId('log-charge-arithmetic')).toBeNull();
    const value = (label: string) => within(drawer).getByText(label).closest('tr')!.lastChild!.textContent;
    expect(value('Time to first byte')).toBe('not measured');
    expect(value('Attempts')).toBe('1');
  });
});
