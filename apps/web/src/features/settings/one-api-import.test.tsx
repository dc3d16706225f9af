import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role, type OneApiImportReport } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, jsonResponse, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

configure({ asyncUtilTimeout: 15_000 });

const report = (dryRun: boolean): OneApiImportReport => ({
  product: 'one-api',
  version: '0.6 or later (channels.config)',
  dryRun,
  tables: { users: { read: 3, imported: 2, skipped: 1 }, tokens: { read: 3, imported: 2, skipped: 1 } },
  skipped: ['users: #1 root: the username is taken here (its keys are skipped too)'],
  notes: [],
});

describe('import from one-api / new-api (system settings)', () => {
  it('shows the dry run report, then imports the same source after confirmation', async () => {
    localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: Role.root })));
    const fetchMock = mockApi({
      'GET /api/status': envelope(testStatus()),
      'GET /api/user/self': envelope(testUser({ role: Role.root })),
      'GET /api/user/available_models': envelope([]),
      'GET /api/option/': envelope([]),
      'POST /api/option/import-one-api': ({ body }) =>
        jsonResponse(envelope(report(Boolean((body as { dry_run?: boolean }).dry_run)))),
    });
    const { user } = renderApp('/setting?tab=system');

    const importButton = await screen.findByRole('button', { name: 'Import' });
    expect(importButton).toBeDisabled();
    await user.type(screen.getByLabelText('Source database'), '/data/one-api.db');
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    const shown = await screen.findByTestId('one-api-import-report');
    expect(within(shown).getByText('dry run, nothing written')).toBeInTheDocument();
    expect(within(shown).getByText(/root: the username is taken here/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/option/import-one-api')[0]?.body).toEqual({
      from: '/data/one-api.db',
      dry_run: true,
      with_logs: false,
    });

    await user.click(screen.getByRole('button', { name: 'Import' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('imported')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/option/import-one-api')[1]?.body).toEqual({
      from: '/data/one-api.db',
      dry_run: false,
      with_logs: false,
    });
  });
});
