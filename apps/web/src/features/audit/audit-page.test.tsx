import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role, type AuditEntry } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const channelEdit: AuditEntry = {
  id: 12,
  created_at: 1_700_000_000,
  actor_id: 1,
  actor_name: 'root',
  ip: '203.0.113.7',
  action: 'channel.update',
  target_type: 'channel',
  target_id: '3',
  target_name: 'openai-primary',
  changes: [
    { field: 'priority', before: 0, after: 5 },
    { field: 'key', masked: true },
  ],
};

const systemDisable: AuditEntry = {
  ...channelEdit,
  id: 11,
  created_at: 1_699_000_000,
  actor_id: 0,
  actor_name: 'system',
  ip: '',
  action: 'channel.disable',
  changes: [{ field: 'status', before: 1, after: 3 }],
};

function setUp() {
  localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: Role.admin })));
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/audit': envelope([channelEdit, systemDisable]),
  });
  return { ...renderApp('/audit'), fetchMock };
}

describe('audit log page', () => {
  it('lists entries and opens a row to its changes, a secret only said to have changed', async () => {
    const { user } = setUp();
    const [actor] = await screen.findAllByText('203.0.113.7', undefined, { timeout: 15_000 });
    const row = actor!.closest('tr')!;
    expect(within(row).getByText('Channel edited')).toBeInTheDocument();
    expect(within(row).queryByTestId('audit-changes')).toBeNull();
    await user.click(row);
    const changes = within(row).getByTestId('audit-changes');
    expect(within(changes).getByText('0')).toBeInTheDocument();
    expect(within(changes).getByText('5')).toBeInTheDocument();
    expect(within(changes).getByText('changed')).toBeInTheDocument();
    const systemRow = screen.getByRole('row', { name: /Changes of the entry at 2023-11-03/ });
    expect(within(systemRow).getByText('System')).toBeInTheDocument();
  });

  it('sends the filters to the server', async () => {
    const { user, fetchMock } = setUp();
    await screen.findAllByText('203.0.113.7', undefined, { timeout: 15_000 });
    await user.type(screen.getByRole('textbox', { name: /Actor/ }), 'root');
    await user.type(screen.getByRole('textbox', { name: /Target ID/ }), '3');
    await user.click(screen.getByRole('button', { name: 'Query' }));
    await screen.findAllByText('203.0.113.7');
    const last = callsTo(fetchMock, 'GET /api/audit').at(-1)!;
    expect(last.url.searchParams.get('actor')).toBe('root');
    expect(last.url.searchParams.get('target_id')).toBe('3');
    expect(last.url.searchParams.get('p')).toBe('0');
  });
});
