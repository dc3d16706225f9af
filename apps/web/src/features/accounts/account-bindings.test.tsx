import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, jsonResponse, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';
import { leaveFor } from './leave-for';

vi.mock('./leave-for', () => ({ leaveFor: vi.fn() }));

// The settings page is lazily loaded and large: its first visit is slow on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

function setUp(status = testStatus()) {
  localStorage.setItem(StorageKey.user, JSON.stringify(testUser()));
  let self: User = testUser();
  const fetchMock = mockApi({
    'GET /api/status': envelope(status),
    'GET /api/user/self': () => jsonResponse(envelope(self)),
    'GET /api/user/available_models': envelope([]),
    'GET /api/oauth/state': envelope('state-9'),
    'GET /api/verification': envelope(
      null,
      'Verification code sent successfully, please check your mailbox!',
    ),
    'GET /api/oauth/email/bind': ({ url }) => {
      self = { ...self, email: url.searchParams.get('email') ?? '' };
      return jsonResponse(envelope(null, 'Email account bound successfully!'));
    },
    'GET /api/oauth/wechat/bind': () => {
      self = { ...self, wechat_id: 'oWx-42' };
      return jsonResponse(envelope(self, 'WeChat account bound successfully!'));
    },
  });
  return { fetchMock, ...renderApp('/setting') };
}

const allProviders = testStatus({
  github_oauth: true,
  github_client_id: 'Iv1.client',
  wechat_login: true,
  lark_client_id: 'cli_lark',
});

describe('personal settings: account binding', () => {
  it('offers only the e-mail binding while no provider is enabled', async () => {
    setUp();
    expect(await screen.findByRole('button', { name: 'Bind email' })).toBeInTheDocument();
    for (const name of ['Bind GitHub account', 'Bind WeChat account', 'Bind Lark account']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it('binds an e-mail with a mailed code; the resend cooldown survives closing the dialog', async () => {
    const { fetchMock, user } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Bind email' }));
    let dialog = await screen.findByRole('dialog', { name: 'Bind email address' });
    await user.type(within(dialog).getByLabelText('Email'), 'alice@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Get code' }));
    expect(await within(dialog).findByRole('button', { name: /^resend \(\d+\)$/ })).toBeDisabled();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Bind email' }));
    dialog = await screen.findByRole('dialog', { name: 'Bind email address' });
    expect(within(dialog).getByRole('button', { name: /^resend \(\d+\)$/ })).toBeDisabled();

    // An empty code does nothing.
    await user.type(within(dialog).getByLabelText('Email'), 'alice@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Bind' }));
    expect(callsTo(fetchMock, 'GET /api/oauth/email/bind')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Verification code'), 'K7Q2ZP');
    await user.click(within(dialog).getByRole('button', { name: 'Bind' }));
    expect(await screen.findByText('Email account bound successfully!')).toBeInTheDocument();
    expect(await screen.findByDisplayValue('alice@example.com')).toBeInTheDocument();
    expect(Object.fromEntries(callsTo(fetchMock, 'GET /api/oauth/email/bind')[0]!.url.searchParams)).toEqual({
      email: 'alice@example.com',
      code: 'K7Q2ZP',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('binds WeChat with the code from the QR dialog and shows the bound id', async () => {
    const { fetchMock, user } = setUp(allProviders);
    await user.click(await screen.findByRole('button', { name: 'Bind WeChat account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bind WeChat account' });
    await user.type(within(dialog).getByLabelText('Verification code'), '778899');
    await user.click(within(dialog).getByRole('button', { name: 'Bind' }));
    expect(await screen.findByText('WeChat account bound successfully!')).toBeInTheDocument();
    expect(await screen.findByDisplayValue('oWx-42')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/oauth/wechat/bind')[0]?.url.searchParams.get('code')).toBe('778899');
  });

  it("binds GitHub through GitHub's authorise page", async () => {
    const { user } = setUp(allProviders);
    await user.click(await screen.findByRole('button', { name: 'Bind GitHub account' }));
    await waitFor(() => expect(leaveFor).toHaveBeenCalledTimes(1));
    expect(vi.mocked(leaveFor).mock.calls[0]?.[0]).toBe(
      'https://github.com/login/oauth/authorize?client_id=Iv1.client&state=state-9&scope=user%3Aemail',
    );
  });
});
