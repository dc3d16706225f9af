import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role, type Channel } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const anthropicChannel: Channel = {
  id: 2,
  type: 14,
  name: 'claude',
  status: 1,
  key: '',
  base_url: '',
  other: '',
  model_mapping: '',
  models: 'claude-sonnet-4-20250514',
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
};

function setUp(path: string) {
  localStorage.setItem(
    StorageKey.user,
    JSON.stringify(testUser({ id: 1, username: 'root', role: Role.root })),
  );
  mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/models': envelope({}),
    'GET /api/group/': envelope(['default']),
    'GET /api/channel/2': envelope(anthropicChannel),
  });
  return renderApp(path);
}

describe('channel form', () => {
  it('says whether the type has a balance API', async () => {
    setUp('/channel/add');
    expect(
      await screen.findByText('The channel list can ask this vendor for the account balance', undefined, {
        timeout: 15_000,
      }),
    ).toBeInTheDocument();
  });

  it('says so when it has none', async () => {
    setUp('/channel/edit/2');
    expect(
      await screen.findByText(
        "This channel type has no balance API: check the balance on the vendor's dashboard",
        undefined,
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
  });
});
