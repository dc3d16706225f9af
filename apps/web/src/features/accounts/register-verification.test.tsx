import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callsTo, envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus } from '../../test/render-app';
import { TURNSTILE_SCRIPT_URL, type TurnstileRenderOptions } from './turnstile-script';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
  delete window.turnstile;
});

function setUp(status = testStatus({ email_verification: true })) {
  const fetchMock = mockApi({
    'GET /api/status': envelope(status),
    'GET /api/verification': envelope(
      null,
      'Verification code sent successfully, please check your mailbox!',
    ),
    'POST /api/user/register': envelope(),
  });
  const view = renderApp('/register');
  return { fetchMock, ...view, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

/** A stand-in for Cloudflare's script: records the widget and hands out the token the test chooses. */
function stubTurnstile() {
  let options: TurnstileRenderOptions | undefined;
  const turnstile = {
    render: vi.fn((_container: HTMLElement, renderOptions: TurnstileRenderOptions) => {
      options = renderOptions;
      return 'widget-1';
    }),
    reset: vi.fn(),
    remove: vi.fn(),
  };
  window.turnstile = turnstile;
  return { turnstile, solve: (token: string) => act(() => options?.callback(token)) };
}

async function fillAccount(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Username'), 'bob');
  await user.type(screen.getByLabelText('Password'), 'password-1');
  await user.type(screen.getByLabelText('Confirm password'), 'password-1');
}

describe('register: e-mail code', () => {
  it('sends the code, then counts resend (n) down for 30 s', async () => {
    const { fetchMock, user } = setUp();
    await user.type(await screen.findByLabelText('Email'), 'bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Get code' }));

    expect(
      await screen.findByText('Verification code sent successfully, please check your mailbox!'),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET /api/verification')[0]?.url.searchParams.get('email')).toBe(
      'bob@example.com',
    );
    expect(screen.getByRole('button', { name: 'resend (30)' })).toBeDisabled();
    await act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByRole('button', { name: 'resend (20)' })).toBeDisabled();
    await act(() => vi.advanceTimersByTime(20_000));
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET /api/verification')).toHaveLength(2));
  });

  it('does nothing for an empty address', async () => {
    const { fetchMock, user } = setUp();
    await user.click(await screen.findByRole('button', { name: 'Get code' }));
    expect(callsTo(fetchMock, 'GET /api/verification')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Get code' })).toBeEnabled();
  });

  it('registers with the e-mail and the code', async () => {
    const { fetchMock, user } = setUp();
    await fillAccount(user);
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    await user.type(screen.getByLabelText('Verification code'), 'K7Q2ZP');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration successful!')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/user/register')[0]?.body).toMatchObject({
      email: 'bob@example.com',
      verification_code: 'K7Q2ZP',
    });
  });
});

describe('register: Turnstile', () => {
  const withTurnstile = testStatus({ turnstile_check: true, turnstile_site_key: 'site-key-1' });

  it('waits for the widget token, then sends it with the registration', async () => {
    const { turnstile, solve } = stubTurnstile();
    const { fetchMock, user } = setUp(withTurnstile);
    await fillAccount(user);
    await waitFor(() => expect(turnstile.render).toHaveBeenCalled());
    expect(turnstile.render.mock.calls[0]?.[1]).toMatchObject({ sitekey: 'site-key-1' });

    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(
      await screen.findByText('Please retry in a few seconds, Turnstile is checking the user environment!'),
    ).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/user/register')).toHaveLength(0);

    await solve('cf-token-1');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Registration successful!')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST /api/user/register')[0]?.url.searchParams.get('turnstile')).toBe(
      'cf-token-1',
    );
  });

  it('sends the token with the e-mail code request and resets the widget after it', async () => {
    const { turnstile, solve } = stubTurnstile();
    const { fetchMock, user } = setUp({ ...withTurnstile, email_verification: true });
    await user.type(await screen.findByLabelText('Email'), 'bob@example.com');
    await waitFor(() => expect(turnstile.render).toHaveBeenCalled());
    await solve('cf-token-2');
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    await screen.findByRole('button', { name: 'resend (30)' });
    expect(callsTo(fetchMock, 'GET /api/verification')[0]?.url.searchParams.get('turnstile')).toBe(
      'cf-token-2',
    );
    expect(turnstile.reset).toHaveBeenCalledWith('widget-1');
  });

  it("says 'Failed to load Turnstile.' when Cloudflare's script cannot load", async () => {
    setUp(withTurnstile);
    await screen.findByLabelText('Username');
    const script = await waitFor(() => {
      const element = document.head.querySelector<HTMLScriptElement>(`script[src="${TURNSTILE_SCRIPT_URL}"]`);
      expect(element).not.toBeNull();
      return element!;
    });
    fireEvent.error(script);
    expect(await screen.findByText('Failed to load Turnstile.')).toBeInTheDocument();
    expect(document.head.querySelector(`script[src="${TURNSTILE_SCRIPT_URL}"]`)).toBeNull();
  });
});
