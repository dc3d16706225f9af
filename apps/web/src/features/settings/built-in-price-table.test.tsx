import { configure, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role, type BuiltInPriceRow, type BuiltInPriceTable } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { callsTo, envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';
import { copyBuiltInTable } from './built-in-prices';

// The settings page is lazily loaded and large: its first visit is slow on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

const ratios = (model: number, completion: number, cacheRead = 1, cacheWrite = 1) => ({
  model_ratio: model,
  completion_ratio: completion,
  cache_read_ratio: cacheRead,
  cache_write_ratio: cacheWrite,
  audio_input_ratio: 1,
  image_input_ratio: 1,
  audio_output_ratio: 1,
  image_output_ratio: 1,
  call_price: null,
});

const rows: BuiltInPriceRow[] = [
  // gpt-4o: $2.50 in, $10 out; the ModelRatio option makes it $2 in.
  {
    model: 'gpt-4o',
    built_in: ratios(1.25, 4, 0.5),
    effective: ratios(1, 4, 0.5),
    overridden_by: ['ModelRatio'],
    is_priced: true,
  },
  {
    model: 'claude-sonnet-4-5',
    built_in: ratios(1.5, 5, 0.1, 1.25),
    effective: ratios(1.5, 5, 0.1, 1.25),
    overridden_by: [],
    is_priced: true,
  },
  // gpt-4o-audio-preview: audio in 16 × $2.50, out 8 × $10 built in; AudioInputRatio makes audio in 20 ×.
  {
    model: 'gpt-4o-audio-preview',
    built_in: { ...ratios(1.25, 4), audio_input_ratio: 16, audio_output_ratio: 8 },
    effective: { ...ratios(1.25, 4), audio_input_ratio: 20, audio_output_ratio: 8 },
    overridden_by: ['AudioInputRatio'],
    is_priced: true,
  },
  {
    model: 'house-agent',
    built_in: null,
    effective: { ...ratios(0, 1), call_price: 0.04 },
    overridden_by: ['ModelPrice'],
    is_priced: true,
  },
];
const table: BuiltInPriceTable = { usd_per_million_at_ratio_1: 2, models: rows };

function setUp() {
  localStorage.setItem(StorageKey.user, JSON.stringify(testUser({ role: Role.root })));
  const fetchMock = mockApi({
    'GET /api/status': envelope(testStatus()),
    'GET /api/user/self': envelope(testUser({ role: Role.root })),
    'GET /api/option/': envelope([
      { key: 'ModelRatio', value: '{"gpt-4o":1}' },
      { key: 'CompletionRatio', value: '{}' },
      { key: 'CacheReadRatio', value: '{}' },
      { key: 'CacheWriteRatio', value: '{}' },
      { key: 'AudioInputRatio', value: '{"gpt-4o-audio-preview":20}' },
      { key: 'ImageInputRatio', value: '{}' },
      { key: 'AudioOutputRatio', value: '{}' },
      { key: 'ImageOutputRatio', value: '{}' },
      { key: 'ModelPrice', value: '{"house-agent":0.04}' },
      { key: 'GroupRatio', value: '{"default":1}' },
    ]),
    'GET /api/pricing/built-in': envelope(table),
    'PUT /api/option/': envelope(),
  });
  return { fetchMock, ...renderApp('/setting?tab=operation') };
}

describe('built-in price table in Operation settings', () => {
  it('shows what each model costs, what the options override, and searches', async () => {
    const { user } = setUp();
    const section = await screen.findByTestId('built-in-price-table');
    const grid = within(section).getAllByRole('table')[0]!;
    const gpt = (await within(grid).findByText('gpt-4o')).closest('tr') as HTMLElement;
    // Output now $8.00 per million tokens; the built-in $10.00 struck through beneath.
    expect(within(gpt).getByText('$8.00')).toBeInTheDocument();
    expect(within(gpt).getByText('$10.00')).toHaveStyle({ textDecoration: 'line-through' });
    expect(within(gpt).getByText('ModelRatio')).toBeInTheDocument();
    const claude = within(grid).getByText('claude-sonnet-4-5').closest('tr') as HTMLElement;
    expect(within(claude).getByText('built-in')).toBeInTheDocument();
    expect(within(claude).getByText('$15.00')).toBeInTheDocument();
    // Audio prices of their own, with their ratio; the built-in one an option replaced struck through.
    const audio = within(grid).getByText('gpt-4o-audio-preview').closest('tr') as HTMLElement;
    expect(within(audio).getByText(/Audio in \$50\.00/)).toBeInTheDocument();
    expect(within(audio).getByText(/Audio in \$40\.00/)).toHaveStyle({ textDecoration: 'line-through' });
    expect(within(audio).getAllByText(/Audio out \$80\.00/)[0]).toBeInTheDocument();
    expect(within(audio).getByText('AudioInputRatio')).toBeInTheDocument();
    expect(within(gpt).queryByText(/Audio in/)).toBeNull();
    const agent = within(grid).getByText('house-agent').closest('tr') as HTMLElement;
    expect(within(agent).getByText('$0.04')).toBeInTheDocument();
    // Blank fields say the built-in prices apply.
    expect(screen.getByLabelText('Completion ratio')).toHaveAttribute(
      'placeholder',
      'Nothing set: the built-in prices below apply',
    );
    await user.type(within(section).getAllByLabelText('Search models ...')[0]!, 'claude');
    expect(within(grid).queryByText('gpt-4o')).toBeNull();
    expect(within(grid).getByText('claude-sonnet-4-5')).toBeInTheDocument();
  });

  it('copies the built-in table into the fields, keeping what is set, for the admin to save', async () => {
    const { fetchMock, user } = setUp();
    const section = await screen.findByTestId('built-in-price-table');
    await within(section).findAllByText('gpt-4o');
    await user.click(
      within(section).getByRole('button', { name: 'Copy the built-in table into the options' }),
    );
    expect(await within(section).findByText(/was merged into the fields above/)).toBeInTheDocument();
    // Nothing is saved until Save is pressed.
    expect(callsTo(fetchMock, 'PUT /api/option/')).toHaveLength(0);
    expect(JSON.parse((screen.getByLabelText('Model ratio') as HTMLTextAreaElement).value)).toEqual({
      'gpt-4o': 1,
      'claude-sonnet-4-5': 1.5,
      'gpt-4o-audio-preview': 1.25,
    });
    await user.click(screen.getAllByRole('button', { name: 'Save' })[1]!);
    await waitFor(() => expect(callsTo(fetchMock, 'PUT /api/option/').length).toBeGreaterThanOrEqual(4));
    const saved = Object.fromEntries(
      callsTo(fetchMock, 'PUT /api/option/').map((call) => {
        const body = call.body as { key: string; value: string };
        return [body.key, JSON.parse(body.value) as unknown];
      }),
    );
    // The media ratios are copied too, the AudioInputRatio entry already set keeping its value.
    expect(saved).toEqual({
      ModelRatio: { 'gpt-4o': 1, 'claude-sonnet-4-5': 1.5, 'gpt-4o-audio-preview': 1.25 },
      CompletionRatio: { 'gpt-4o': 4, 'claude-sonnet-4-5': 5, 'gpt-4o-audio-preview': 4 },
      CacheReadRatio: { 'gpt-4o': 0.5, 'claude-sonnet-4-5': 0.1 },
      CacheWriteRatio: { 'claude-sonnet-4-5': 1.25 },
      AudioOutputRatio: { 'gpt-4o-audio-preview': 8 },
    });
  });

  it('replaces what is set when asked to', () => {
    const texts = copyBuiltInTable(rows, { ModelRatio: '{"gpt-4o":1,"house-model":3}' }, 'replace');
    expect(JSON.parse(texts.ModelRatio)).toEqual({
      'gpt-4o': 1.25,
      'claude-sonnet-4-5': 1.5,
      'gpt-4o-audio-preview': 1.25,
    });
    expect(JSON.parse(texts.AudioInputRatio)).toEqual({ 'gpt-4o-audio-preview': 16 });
    expect(texts.ImageInputRatio).toBe('');
    const merged = copyBuiltInTable(rows, { ModelRatio: '{"gpt-4o":1,"house-model":3}' }, 'merge');
    expect(JSON.parse(merged.ModelRatio)).toEqual({
      'gpt-4o': 1,
      'claude-sonnet-4-5': 1.5,
      'gpt-4o-audio-preview': 1.25,
      'house-model': 3,
    });
  });
});
