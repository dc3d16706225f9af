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
});
