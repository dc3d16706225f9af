import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { LogType, TokenStatus, type Token } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, jsonResponse, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';

const token = (overrides: Partial<Token>): Token => ({
  id: 1,
  user_id: 2,
  name: 'work',
  key: 'workkey123',
  status: TokenStatus.enabled,
  used_quota: 0,
  remain_quota: 0,
  unlimited_quota: true,
  request_count: 0,
  created_time: 0,
  accessed_time: 0,
  expired_time: -1,
  models: '',
  subnet: '',
  rpm_limit: 0,
  tpm_limit: 0,
  max_parallel_requests: 0,
  budget: 0,
  budget_period: '',
  model_limits: {},
  ...overrides,
});

/** An OpenAI stream as the relay sends it: text chunks, then the usage chunk, then [DONE]. */
function sseAnswer(words: string[], requestId: string): Response {
  const events = [
    ...words.map((word) => ({ choices: [{ index: 0, delta: { content: word }, finish_reason: null }] })),
    { choices: [], usage: { prompt_tokens: 21, completion_tokens: 7, total_tokens: 28 } },
  ];
  const text = `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
  const bytes = new TextEncoder().encode(text);
  // Cut mid-event, as the network may: the reader must join the pieces.
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.slice(0, 37));
      controller.enqueue(bytes.slice(37));
      controller.close();
    },
  });
  return new Response(body, {
    headers: { 'Content-Type': 'text/event-stream', 'X-Request-Id': requestId },
  });
}

function setUp(chat: (body: Record<string, unknown>) => Response, displayInCurrency = true) {
  localStorage.setItem(StorageKey.user, JSON.stringify(testUser()));
  const fetchMock = mockApi({
    'GET /api/status': envelope(
      testStatus({ server_address: 'https://gw.example.com', display_in_currency: displayInCurrency }),
    ),
    'GET /api/token/': envelope([
      token({ id: 1, name: 'work', key: 'workkey123' }),
      token({ id: 2, name: 'off', key: 'offkey', status: TokenStatus.disabled }),
      token({ id: 3, name: 'limited', key: 'limitedkey', models: 'claude-3-haiku' }),
    ]),
    'GET /api/user/available_models': envelope([{ model: 'gpt-4o-mini' }, { model: 'gpt-4o' }]),
    'POST /v1/chat/completions': ({ body }) => chat(body as Record<string, unknown>),
    'GET /api/log/self/': ({ url }) =>
      jsonResponse(
        envelope(
          url.searchParams.get('request_id') === 'req-1' &&
            url.searchParams.get('type') === String(LogType.consume)
            ? [{ id: 9, request_id: 'req-1', quota: 1234 }]
            : [],
        ),
      ),
  });
  return { fetchMock, ...renderApp('/playground') };
}

beforeEach(() => {
  // jsdom has no layout: Mantine's option list scrolls its active option into view.
  Element.prototype.scrollIntoView = () => undefined;
});

describe('playground', () => {
  it('streams an answer with the chosen key, then shows its usage and the charge from the usage log', async () => {
    const { fetchMock, user } = setUp(() => sseAnswer(['Hel', 'lo ', 'there'], 'req-1'));
    const keySelect = await screen.findByRole('textbox', { name: 'API key' }, { timeout: 15_000 });
    await waitFor(() => expect(keySelect).toHaveValue('work'));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('gpt-4o-mini'));
    await user.type(screen.getByRole('textbox', { name: 'System prompt' }), 'Be brief.');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Say hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));

    const conversation = screen.getByRole('log', { name: 'Conversation' });
    expect(await within(conversation).findByText('Hello there')).toBeInTheDocument();
    expect(within(conversation).getByText('Say hello')).toBeInTheDocument();
    expect(
      await within(conversation).findByText('Tokens: 21 prompt · 7 completion · 28 total'),
    ).toBeVisible();
    // 1,234 quota at 500,000 a dollar, with the log's six decimals.
    expect(await within(conversation).findByText('Charge: $0.002468')).toBeVisible();

    const [call] = fetchMock.mock.calls.filter(([input]) => String(input) === '/v1/chat/completions');
    const init = call![1]!;
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer sk-workkey123');
    expect(init.credentials).toBe('omit');
    expect(JSON.parse(String(init.body))).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
      temperature: 1,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(callsTo(fetchMock, 'GET /api/log/self/')[0]?.url.searchParams.get('request_id')).toBe('req-1');
  });

  it('shows the charge as quota when the console does not display currency', async () => {
    const { user } = setUp(() => sseAnswer(['Hi'], 'req-1'), false);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('gpt-4o-mini'), {
      timeout: 15_000,
    });
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Charge: 1234')).toBeVisible();
  });

  it('sends the earlier turns with the next question, and clears the conversation', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    const { user } = setUp((body) => {
      bodies.push(body);
      return sseAnswer([`Answer ${bodies.length}`], `req-${bodies.length + 10}`);
    });
    const message = await screen.findByRole('textbox', { name: 'Message' }, { timeout: 15_000 });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('gpt-4o-mini'));
    await user.type(message, 'First');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Answer 1');
    await user.type(message, 'Second{Control>}{Enter}{/Control}');
    await screen.findByText('Answer 2');
    expect(bodies[1]?.messages).toEqual([
      { role: 'user', content: 'First' },
      { role: 'assistant', content: 'Answer 1' },
      { role: 'user', content: 'Second' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByText('Answer 1')).toBeNull();
    expect(screen.getByText(/Send a message to start/)).toBeInTheDocument();
  });

  it('offers only enabled keys, and a limited key only its models', async () => {
    const { user } = setUp(() => sseAnswer(['x'], 'req-1'));
    const keySelect = await screen.findByRole('textbox', { name: 'API key' }, { timeout: 15_000 });
    await user.click(keySelect);
    const listbox = document.getElementById(keySelect.getAttribute('aria-controls') ?? '');
    const options = within(listbox!).getAllByRole('option', { hidden: true });
    expect(options.map((option) => option.textContent)).toEqual(['work', 'limited']);
    await user.click(screen.getByRole('option', { name: 'limited', hidden: true }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('claude-3-haiku'));
  });

  it("shows the relay's refusal clearly", async () => {
    const { user } = setUp(() =>
      jsonResponse(
        {
          error: {
            message: 'The key has no quota left (request id: req-x)',
            type: 'insufficient_quota',
            code: 'insufficient_quota',
          },
        },
        429,
      ),
    );
    const message = await screen.findByRole('textbox', { name: 'Message' }, { timeout: 15_000 });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('gpt-4o-mini'));
    await user.type(message, 'Hi');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert', { name: 'Not enough quota' });
    expect(alert).toHaveTextContent('The key has no quota left (request id: req-x)');
    expect(alert).toHaveTextContent('HTTP 429');
  });

  it('copies the conversation as a streamed curl command against the server address', async () => {
    const { user } = setUp(() => sseAnswer(['x'], 'req-1'));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Model' })).toHaveValue('gpt-4o-mini'), {
      timeout: 15_000,
    });
    await user.type(screen.getByRole('textbox', { name: 'Message' }), "What's new?");
    await user.click(screen.getByRole('button', { name: 'Copy as' }));
    await user.click(await screen.findByRole('menuitem', { name: 'cURL command' }));
    expect(await screen.findByText('Copied to clipboard')).toBeInTheDocument();
    // user-event gives the page a clipboard of its own.
    const copied = await navigator.clipboard.readText();
    expect(copied).toContain('curl https://gw.example.com/v1/chat/completions');
    expect(copied).toContain('Authorization: Bearer sk-workkey123');
    expect(copied).toContain(`"content": "What'\\''s new?"`);
    expect(copied).toContain('"include_usage": true');
  });
});
