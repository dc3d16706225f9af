import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, failure, jsonResponse, mockApi, type ApiRoutes } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

// The settings page is lazily loaded and large: its first visit is slow on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

const savedOptions = [
  { key: 'PasswordLoginEnabled', value: 'true' },
  { key: 'GitHubOAuthEnabled', value: 'false' },
  { key: 'SMTPServer', value: 'smtp.example.com' },
  { key: 'SMTPPort', value: '587' },
  { key: 'ModelRatio', value: '{}' },
  { key: 'CompletionRatio', value: '{}' },
  { key: 'GroupRatio', value: '{"default":1}' },
];

function setUp(role: number, routes: ApiRoutes = {}, path = '/setting') {
  localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role })));
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/user/self': envelope(testUser({ role, email: 'alice@example.com' })),
    'GET /api/user/available_models': envelope([{ model: 'gpt-4o' }]),
    'GET /api/option/': envelope(savedOptions),
    ...routes,
  });
  return { fetchMock, ...renderApp(path) };
}

describe('settings page', () => {
  it('shows a normal user only personal settings, with its models and bound e-mail', async () => {
    setUp(Role.common, {}, '/setting?tab=system');
    expect(await screen.findByText('gpt-4o')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Personal settings']);
    expect(await screen.findByDisplayValue('alice@example.com')).toBeInTheDocument();
  });

  it('shows an admin the admin tabs without asking for the root-only options', async () => {
    const { fetchMock, user } = setUp(Role.admin);
    await user.click(await screen.findByRole('tab', { name: 'Operation settings' }));
    expect(
      await screen.findByText(/Only the super admin can view and change system options/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear historical logs' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/option/')).toHaveLength(0);
  });

  it('keeps a switch at the saved value when the server refuses it, showing why', async () => {
    const refusal = 'Fill in the GitHub client ID and client secret before enabling GitHub OAuth';
    const { fetchMock, user } = setUp(
      Role.root,
      { 'PUT /api/option/': failure(refusal) },
      '/setting?tab=system',
    );
    const toggle = await screen.findByRole('switch', { name: 'Allow login and registration via GitHub' });
    await user.click(toggle);
    expect(await screen.findAllByText(refusal)).not.toHaveLength(0);
    expect(toggle).not.toBeChecked();
    expect(callsTo(fetchMock, 'PUT /api/option/')[0]?.body).toEqual({
      key: 'GitHubOAuthEnabled',
      value: 'true',
    });
  });

  it('asks before turning password login off', async () => {
    const { fetchMock, user } = setUp(Role.root, { 'PUT /api/option/': envelope() }, '/setting?tab=system');
    await user.click(await screen.findByRole('switch', { name: 'Allow login by password' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/stops every user without another login method/)).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT /api/option/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'PUT /api/option/')[0]?.body).toEqual({
        key: 'PasswordLoginEnabled',
        value: 'false',
      }),
    );
  });

  it('sends only changed fields, a secret only when typed, and never a blank SMTP port', async () => {
    const { fetchMock, user } = setUp(
      Role.root,
      { 'PUT /api/option/': ({ body }) => jsonResponse(envelope(body)) },
      '/setting?tab=system',
    );
    const port = await screen.findByLabelText(/SMTP port/);
    await user.clear(port);
    await user.type(screen.getByLabelText('SMTP access credential'), 'smtp-secret');
    const section = port.closest('.mantine-Paper-root') as HTMLElement;
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT /api/option/')).toHaveLength(1));
    expect(callsTo(fetchMock, 'PUT /api/option/')[0]?.body).toEqual({
      key: 'SMTPToken',
      value: 'smtp-secret',
    });
    await waitFor(() => expect(screen.getByLabelText('SMTP access credential')).toHaveValue(''));
  });

  it('refuses invalid ratio JSON in the browser with the spec message', async () => {
    const { fetchMock, user } = setUp(Role.root, {}, '/setting?tab=operation');
    const editor = await screen.findByLabelText('Completion ratio');
    await user.type(editor, '{{"gpt-4": 2');
    const section = editor.closest('.mantine-Paper-root') as HTMLElement;
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Completion ratio is not a valid JSON string')).not.toHaveLength(0);
    expect(callsTo(fetchMock, 'PUT /api/option/')).toHaveLength(0);
  });

  it('turns on stored Responses API responses at once and saves their retention with its section', async () => {
    const { fetchMock, user } = setUp(
      Role.root,
      { 'PUT /api/option/': envelope(null) },
      '/setting?tab=operation',
    );
    // The switch's label holds its description too.
    await user.click(await screen.findByLabelText(/^Store Responses API responses/));
    expect(callsTo(fetchMock, 'PUT /api/option/')[0]?.body).toEqual({
      key: 'ResponsesStorageEnabled',
      value: 'true',
    });
    const days = screen.getByLabelText('Keep stored responses for (days)');
    await user.clear(days);
    await user.type(days, '7');
    const section = days.closest('.mantine-Paper-root') as HTMLElement;
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'PUT /api/option/').map((call) => call.body)).toContainEqual({
        key: 'ResponsesRetentionDays',
        value: '7',
      }),
    );
  });
});

describe('active sessions in personal settings', () => {
  const sessions = [
    {
      id: 'here',
      created_at: 1_700_000_000,
      last_seen_at: 1_700_000_600,
      expires_at: 1_702_592_000,
      ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
      is_current: true,
    },
    {
      id: 'phone',
      created_at: 1_700_000_000,
      last_seen_at: 1_700_000_300,
      expires_at: 1_702_592_000,
      ip: '198.51.100.4',
      user_agent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      is_current: false,
    },
  ];

  it('lists them by device and address, and signs out one or all the others', async () => {
    const { fetchMock, user } = setUp(Role.common, {
      'GET /api/user/sessions': envelope(sessions),
      'DELETE /api/user/sessions/phone': envelope(null, 'Signed out'),
      'DELETE /api/user/sessions': envelope({ ended: 1 }, 'Signed out everywhere else'),
    });
    expect(await screen.findByText('Firefox on Linux')).toBeInTheDocument();
    expect(screen.getByText('Safari on iOS')).toBeInTheDocument();
    expect(screen.getByText('This device')).toBeInTheDocument();
    expect(screen.getByText('IP 198.51.100.4')).toBeInTheDocument();
    // Only the other session has its own sign-out; this one signs out through the menu.
    const signOuts = screen.getAllByRole('button', { name: 'Sign out' });
    expect(signOuts).toHaveLength(1);
    await user.click(signOuts[0]!);
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE /api/user/sessions/phone')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE /api/user/sessions')).toHaveLength(1));
  });
});
