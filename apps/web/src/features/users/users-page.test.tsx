import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Role, UserStatus, type User } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, mockApi, type ApiRoutes } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const root = testUser({ id: 1, username: 'root', role: Role.root });
const alice = testUser({ id: 2, username: 'alice', group: 'vip,default' });
const bob = testUser({ id: 3, username: 'bob' });

function setUp(viewer: User, routes: ApiRoutes = {}) {
  localStorage.setItem(StorageKey.user, JSON.stringify(viewer));
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/user/': envelope([bob, alice, root]),
    ...routes,
  });
  return { fetchMock, ...renderApp('/user') };
}

// The first visit waits for the lazily loaded page to be transformed, slow on a busy machine.
const rowOf = async (username: string) =>
  (await screen.findByText(username, undefined, { timeout: 15_000 })).closest('tr') as HTMLElement;

// jsdom has no layout: Mantine's Select scrolls its options into view.
beforeAll(() => {
  Element.prototype.scrollIntoView = () => undefined;
});

describe('user list', () => {
  it('disables every action on the super admin row and promotion for an admin viewer', async () => {
    setUp(testUser({ id: 9, username: 'admin', role: Role.admin }));
    const rootRow = await rowOf('root');
    for (const name of ['Promote', 'Demote', 'Disable', 'Delete']) {
      expect(within(rootRow).getByRole('button', { name })).toBeDisabled();
    }
    const aliceRow = await rowOf('alice');
    expect(within(aliceRow).getByRole('button', { name: 'Promote' })).toBeDisabled();
    expect(within(aliceRow).getByRole('button', { name: 'Disable' })).toBeEnabled();
    expect(within(aliceRow).getByText('vip')).toBeInTheDocument();
  });

  it('confirms, sends the action and shows the status the server answers', async () => {
    const { fetchMock, user } = setUp(root, {
      'POST /api/user/manage': envelope({ status: UserStatus.disabled, role: Role.common }),
    });
    await user.click(within(await rowOf('alice')).getByRole('button', { name: 'Disable' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await within(await rowOf('alice')).findByText('Banned')).toBeInTheDocument();
    expect(within(await rowOf('alice')).getByRole('button', { name: 'Enable' })).toBeEnabled();
    expect(callsTo(fetchMock, 'POST /api/user/manage')[0]?.body).toEqual({
      username: 'alice',
      action: 'disable',
    });
  });

  it('hides a deleted user without asking the list again', async () => {
    const { fetchMock, user } = setUp(root, {
      'POST /api/user/manage': envelope({ status: UserStatus.enabled, role: Role.common }),
    });
    await user.click(within(await rowOf('bob')).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByText('bob')).not.toBeInTheDocument());
    expect(screen.getByText('alice')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/user/')).toHaveLength(1);
  });

  it('asks the server for the chosen order', async () => {
    const { fetchMock, user } = setUp(root);
    await rowOf('alice');
    await user.click(screen.getByRole('textbox', { name: 'Server sort order' }));
    // The dropdown is still fading in (display: none in jsdom, which runs no transitions).
    await user.click(await screen.findByRole('option', { name: 'Sort by used quota', hidden: true }));
    await waitFor(() =>
      expect(
        callsTo(fetchMock, 'GET /api/user/').map((call) => call.url.searchParams.get('order')),
      ).toContain('used_quota'),
    );
  });
});
