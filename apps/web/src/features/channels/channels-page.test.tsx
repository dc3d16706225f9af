import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role, type Channel } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, failure, jsonResponse, mockApi, type ApiRoutes } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const channel = (overrides: Partial<Channel>): Channel => ({
  id: 1,
  type: 1,
  name: 'primary',
  status: 1,
  key: '',
  base_url: '',
  other: '',
  model_mapping: '',
  models: 'gpt-4o,o3',
  group: 'default',
  config: '',
  priority: 0,
  weight: 0,
  used_quota: 0,
  request_count: 0,
  response_time: 0,
  test_time: 0,
  balance: 0,
  balance_updated_time: 0,
  created_time: 0,
  ...overrides,
});

const primary = channel({ id: 1, name: 'primary', response_time: 800 });
const withBalance = channel({ id: 3, name: 'reseller', balance: 7.25, balance_updated_time: 1_700_000_000 });
const backup = channel({ id: 2, name: 'backup', type: 14, status: 3, models: 'claude-sonnet-4-20250514' });

function setUp(routes: ApiRoutes = {}) {
  localStorage.setItem(
    StorageKey.user,
    JSON.stringify(testUser({ id: 1, username: 'root', role: Role.root })),
  );
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/channel/': envelope([primary, backup, withBalance]),
    'PUT /api/channel/': envelope(primary),
    ...routes,
  });
  return { fetchMock, ...renderApp('/channel') };
}

const rowOf = async (name: string) =>
  (await screen.findByText(name, undefined, { timeout: 15_000 })).closest('tr') as HTMLElement;

beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
});

describe('channel list', () => {
  it('shows type tag, status badge and response time badge', async () => {
    setUp();
    const row = await rowOf('primary');
    expect(within(row).getByText('OpenAI')).toBeInTheDocument();
    expect(within(row).getByText('Enabled')).toBeInTheDocument();
    expect(within(row).getByText('0.80 s')).toBeInTheDocument();
    const backupRow = await rowOf('backup');
    expect(within(backupRow).getByText('Automatically disabled')).toBeInTheDocument();
    expect(within(backupRow).getByText('Untested')).toBeInTheDocument();
    expect(within(backupRow).getByRole('button', { name: 'Enable' })).toBeInTheDocument();
    expect(within(await rowOf('reseller')).getByText('$7.25')).toBeInTheDocument();
    expect(within(row).getByText('Click to query')).toBeInTheDocument();
  });

  it("shows each channel's circuit state, recent error rate and latency, and refused credentials", async () => {
    const health = {
      state: 'closed' as const,
      until: 0,
      model: '',
      reason: '',
      circuits: [],
      requests: 0,
      error_rate: 0,
      latency_ms: 0,
      window_seconds: 300,
    };
    const open = channel({
      id: 4,
      name: 'tripped',
      health: {
        ...health,
        state: 'open',
        until: 1_900_000_000,
        model: 'gpt-4o',
        reason: 'upstream exploded',
        circuits: [{ model: 'gpt-4o', state: 'open', until: 1_900_000_000 }],
        requests: 8,
        error_rate: 0.75,
        latency_ms: 420,
      },
    });
    const refused = channel({
      id: 5,
      name: 'refused',
      auth_failed_reason: 'Incorrect API key provided',
      health,
    });
    const quiet = channel({ id: 6, name: 'quiet', health });
    setUp({ 'GET /api/channel/': envelope([open, refused, quiet]) });
    const openRow = await rowOf('tripped');
    expect(within(openRow).getByText('Circuit open')).toBeInTheDocument();
    expect(within(openRow).getByText(/^until /)).toBeInTheDocument();
    expect(within(openRow).getByText('75% errors · 420 ms · 8 req')).toBeInTheDocument();
    expect(within(await rowOf('refused')).getByText('Auth failed')).toBeInTheDocument();
    const quietRow = await rowOf('quiet');
    expect(within(quietRow).getByText('Healthy')).toBeInTheDocument();
    expect(within(quietRow).getByText('No recent requests')).toBeInTheDocument();
  });

  it('tests a channel with its first model and shows the time', async () => {
    const { user, fetchMock } = setUp({
      'GET /api/channel/test/1': { success: true, message: '', time: 1.234, model: 'gpt-4o' },
    });
    await user.click(within(await rowOf('primary')).getByRole('button', { name: 'Test' }));
    expect(
      await screen.findByText('channel primary test succeeded, model gpt-4o, time 1.23 seconds'),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/channel/test/1')[0]!.url.searchParams.get('model')).toBe('gpt-4o');
  });

  it("shows the model's reply after a passing test", async () => {
    const { user } = setUp({
      'GET /api/channel/test/1': { success: true, message: 'Hello!', time: 0.5, model: 'gpt-4o' },
    });
    await user.click(within(await rowOf('primary')).getByRole('button', { name: 'Test' }));
    expect(
      await screen.findByText(
        'channel primary test succeeded, model gpt-4o, time 0.50 seconds, output: Hello!',
      ),
    ).toBeInTheDocument();
  });

  it('queries a balance on click, and says when a type has no balance API', async () => {
    const { user, fetchMock } = setUp({
      'GET /api/channel/update_balance/1': { success: true, message: '', balance: 12.5 },
      'GET /api/channel/update_balance': envelope(),
    });
    const row = await rowOf('primary');
    await user.click(within(row).getByRole('button', { name: 'Balance (primary)' }));
    expect(await screen.findByText('Balance of channel primary updated')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/channel/update_balance/1')).toHaveLength(1);
    // Anthropic publishes no balance endpoint: a dash, no button.
    expect(within(await rowOf('backup')).queryByRole('button', { name: 'Balance (backup)' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Refresh balances' }));
    expect(
      await screen.findByText('Refreshing balances in the background, refresh the list to see them'),
    ).toBeInTheDocument();
  });

  it('shows the reason of a failed test', async () => {
    const { user } = setUp({ 'GET /api/channel/test/1': failure('upstream said 401: invalid api key') });
    await user.click(within(await rowOf('primary')).getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('upstream said 401: invalid api key')).toBeInTheDocument();
  });

  it('starts testing all channels and says so', async () => {
    const { user, fetchMock } = setUp({ 'GET /api/channel/test': envelope() });
    await rowOf('primary');
    await user.click(screen.getByRole('button', { name: 'Test all channels' }));
    expect(await screen.findByText('channel test started, refresh to see results')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/channel/test')[0]!.url.searchParams.get('scope')).toBe('all');
  });

  it('edits priority in place, ignores an empty input and clamps the weight', async () => {
    const { user, fetchMock } = setUp();
    await rowOf('primary');
    const priority = screen.getByLabelText('Priority of channel primary');
    await user.clear(priority);
    await user.tab();
    expect(callsTo(fetchMock, 'PUT /api/channel/')).toHaveLength(0);
    expect(priority).toHaveValue('0');
    await user.type(priority, '5{Enter}');
    await waitFor(() =>
      expect(callsTo(fetchMock, 'PUT /api/channel/').at(-1)?.body).toEqual({ id: 1, priority: 5 }),
    );
    const weight = screen.getByLabelText('Weight of channel primary');
    await user.clear(weight);
    await user.type(weight, '-3{Enter}');
    await waitFor(() =>
      expect(callsTo(fetchMock, 'PUT /api/channel/').at(-1)?.body).toEqual({ id: 1, weight: 3 }),
    );
  });

  it('disables an enabled channel and deletes the disabled ones after confirmation', async () => {
    const { user, fetchMock } = setUp({ 'DELETE /api/channel/disabled': () => jsonResponse(envelope(2)) });
    await user.click(within(await rowOf('primary')).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'PUT /api/channel/')[0]?.body).toEqual({ id: 1, status: 2 }),
    );
    await user.click(screen.getByRole('button', { name: 'Delete disabled channels' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('deleted all disabled channels, 2 in total')).toBeInTheDocument();
  });
});
