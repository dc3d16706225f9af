import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Role, type PriceList, type PricedModel } from '@gatehouse/shared';
import { StorageKey } from '../../api/storage';
import { envelope, mockApi } from '../../test/mock-api';
import { renderApp, testStatus, testUser } from '../../test/render-app';
import { formatPrice } from './pricing-queries';

const priced = (model: string, input: number, output: number): PricedModel => ({
  model,
  group: 'vip',
  group_ratio: 0.5,
  model_ratio: 1,
  completion_ratio: output / input,
  cache_read_ratio: 0.1,
  cache_write_ratio: 1.25,
  audio_input_ratio: 1,
  image_input_ratio: 1,
  audio_output_ratio: 1,
  image_output_ratio: 1,
  input_price: input,
  output_price: output,
  cache_read_price: input * 0.1,
  cache_write_price: input * 1.25,
  audio_input_price: input,
  image_input_price: input,
  audio_output_price: output,
  image_output_price: output,
  call_price: null,
});

function setUp(list: PriceList) {
  localStorage.setItem(
    StorageKey.user,
    JSON.stringify(testUser({ id: 2, username: 'alice', role: Role.common })),
  );
  mockApi({ 'GET /api/status': envelope(testStatus()), 'GET /api/pricing': envelope(list) });
  return renderApp('/pricing');
}

describe('pricing page', () => {
  it('lists the models with their group ratio and prices per million tokens, and searches them', async () => {
    const { user } = setUp({
      display_in_currency: true,
      quota_per_unit: 500_000,
      models: [priced('gpt-4o', 2.5, 10), priced('claude-sonnet-4', 3, 15)],
    });
    const table = (await screen.findAllByRole('table', undefined, { timeout: 15_000 }))[0]!;
    const row = (await within(table).findByText('gpt-4o')).closest('tr') as HTMLElement;
    expect(within(row).getByText('vip × 0.5')).toBeInTheDocument();
    expect(within(row).getByText('$2.50')).toBeInTheDocument();
    expect(within(row).getByText('$10.00')).toBeInTheDocument();
    expect(within(row).getByText('$0.25')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Search models ...'), 'claude{Enter}');
    expect(within(table).queryByText('gpt-4o')).toBeNull();
    expect(within(table).getByText('claude-sonnet-4')).toBeInTheDocument();
  });

  it('shows the audio and image prices that differ from the text ones, with their ratio', async () => {
    setUp({
      display_in_currency: true,
      quota_per_unit: 500_000,
      models: [
        {
          ...priced('gpt-4o-audio-preview', 2.5, 10),
          audio_input_ratio: 16,
          audio_output_ratio: 8,
          audio_input_price: 40,
          audio_output_price: 80,
        },
        priced('gpt-4o', 2.5, 10),
      ],
    });
    const table = (await screen.findAllByRole('table', undefined, { timeout: 15_000 }))[0]!;
    const audio = (await within(table).findByText('gpt-4o-audio-preview')).closest('tr') as HTMLElement;
    expect(within(audio).getByText(/Audio in \$40\.00/)).toHaveTextContent('Audio in $40.00 (16×)');
    expect(within(audio).getByText(/Audio out \$80\.00/)).toHaveTextContent('Audio out $80.00 (8×)');
    expect(within(audio).queryByText(/Image in/)).toBeNull();
    const text = within(table).getByText('gpt-4o').closest('tr') as HTMLElement;
    expect(within(text).queryByText(/Audio in/)).toBeNull();
  });

  it('shows a model priced per call with its price per call instead of token prices', async () => {
    setUp({
      display_in_currency: true,
      quota_per_unit: 500_000,
      models: [{ ...priced('house-agent', 0, 0), call_price: 0.06 }, priced('gpt-4o', 2.5, 10)],
    });
    const table = (await screen.findAllByRole('table', undefined, { timeout: 15_000 }))[0]!;
    const row = (await within(table).findByText('house-agent')).closest('tr') as HTMLElement;
    expect(within(row).getByText('$0.06 per call')).toBeInTheDocument();
    expect(within(row).queryByText('$0.00')).toBeNull();
  });

  it('formats prices in dollars or in quota', () => {
    expect(formatPrice(0.075, { display_in_currency: true })).toBe('$0.075');
    expect(formatPrice(2, { display_in_currency: true })).toBe('$2.00');
    expect(formatPrice(1_250_000, { display_in_currency: false })).toBe('1,250,000');
  });
});
