import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, envelope, failure, mockApi } from '../../test/mock-api';
import { renderApp, testStatus } from '../../test/render-app';

// The cooldowns count real seconds: the clock is faked, and moves on by itself so the pages still load.
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

function render(path: string) {
  const view = renderApp(path);
  return { ...view, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

const seconds = (count: number) => act(() => vi.advanceTimersByTime(count * 1000));

describe('password reset request (/reset)', () => {
  it('mails the link, then waits 30 s showing retry (n) before it can send again', async () => {
    const fetchMock = mockApi({
      'GET /api/status': envelope(testStatus()),
      'GET /api/reset_password': envelope(null, 'Reset email sent successfully, please check your mailbox!'),
    });
    const { user } = render('/reset');
    await user.type(await screen.findByLabelText('Email'), ' Ann@Example.com ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(
      await screen.findByText('Reset email sent successfully, please check your mailbox!'),
    ).toBeInTheDocument();
    const [call] = callsTo(fetchMock, 'GET /api/reset_password');
    expect(call?.url.searchParams.get('email')).toBe('ann@example.com');
    expect(call?.url.searchParams.get('turnstile')).toBe('');
    expect(screen.getByRole('button', { name: 'retry (30)' })).toBeDisabled();

    await seconds(1);
    expect(screen.getByRole('button', { name: 'retry (29)' })).toBeDisabled();
    await seconds(29);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(callsTo(fetchMock, 'GET /api/reset_password')).toHaveLength(2));
  });

  it('refuses a malformed address without asking the server', async () => {
    const fetchMock = mockApi({ 'GET /api/status': envelope(testStatus()) });
    const { user } = render('/reset');
    await user.type(await screen.findByLabelText('Email'), 'ann@');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please enter a valid e-mail address')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/reset_password')).toHaveLength(0);
  });

  it('lets the visitor send again at once when sending failed', async () => {
    mockApi({
      'GET /api/status': envelope(testStatus()),
      'GET /api/reset_password': failure('Failed to send the e-mail: the mail server could not be reached'),
    });
    const { user } = render('/reset');
    await user.type(await screen.findByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(/the mail server could not be reached/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });
});

describe('password reset confirmation (/user/reset)', () => {
  const link = '/user/reset?email=ann%40example.com&token=tok-123';

  it('resets once, shows the new password and copies it when clicked', async () => {
    const fetchMock = mockApi({
      'GET /api/status': envelope(testStatus()),
      'POST /api/user/reset': envelope('N3w-Passw0rd'),
    });
    // user-event gives the page a clipboard of its own.
    const { user } = render(link);
    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('ann@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const password = await screen.findByLabelText('New password');
    expect(password).toHaveValue('N3w-Passw0rd');
    expect(screen.getByRole('button', { name: 'reset completed' })).toBeDisabled();
    expect(callsTo(fetchMock, 'POST /api/user/reset').map((call) => call.body)).toEqual([
      { email: 'ann@example.com', token: 'tok-123' },
    ]);

    await user.click(password);
    expect(await navigator.clipboard.readText()).toBe('N3w-Passw0rd');
    expect(await screen.findByText('New password copied to clipboard')).toBeInTheDocument();

    // The link works once: the button never comes back.
    await seconds(60);
    expect(screen.getByRole('button', { name: 'reset completed' })).toBeDisabled();
  });

  it('says how to copy by hand when the clipboard is refused', async () => {
    mockApi({ 'GET /api/status': envelope(testStatus()), 'POST /api/user/reset': envelope('N3w-Passw0rd') });
    const { user } = render(link);
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    await user.click(await screen.findByLabelText('New password'));
    expect(await screen.findByText('unable to copy to clipboard, please copy manually')).toBeInTheDocument();
  });

  it('shows the refusal and a 30 s retry (n) cooldown when the link is spent', async () => {
    mockApi({
      'GET /api/status': envelope(testStatus()),
      'POST /api/user/reset': failure('The reset link is invalid or has expired'),
    });
    const { user } = render(link);
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The reset link is invalid or has expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'retry (30)' })).toBeDisabled();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    await seconds(30);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  it('explains an incomplete link instead of sending it', async () => {
    const fetchMock = mockApi({ 'GET /api/status': envelope(testStatus()) });
    render('/user/reset?email=ann%40example.com');
    expect(await screen.findByText('This reset link is incomplete.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new one' })).toHaveAttribute('href', '/reset');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(callsTo(fetchMock, 'POST /api/user/reset')).toHaveLength(0);
  });
});
