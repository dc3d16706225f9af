import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const root = testUser({ id: 1, username: 'root', role: Role.root });

function openUserEdit(quota: number) {
  localStorage.setItem(StorageKey.user, JSON.stringify(root));
  mockApi({
    'GET /api/status': envelope(testStatus({ quota_per_unit: 500000, display_in_currency: true })),
    'GET /api/user/self': envelope(root),
    'GET /api/user/2': envelope(testUser({ quota })),
    'GET /api/group/': envelope(['default']),
  });
  return renderApp('/user/edit/2');
}

describe('the quota field', () => {
  it('shows the quota as money and as a short count under the field, and nothing when it is cleared', async () => {
    const { user } = openUserEdit(1_500_000);
    const field = await screen.findByLabelText('Remaining quota', undefined, { timeout: 15_000 });
    expect(field).toHaveValue('1,500,000');
    expect(await screen.findByText('Equals $3.00 (1.5M)')).toBeInTheDocument();
    await user.clear(field);
    expect(screen.queryByText(/^Equals /)).not.toBeInTheDocument();
    await user.type(field, '250000');
    expect(await screen.findByText('Equals $0.50 (250k)')).toBeInTheDocument();
  });
});
