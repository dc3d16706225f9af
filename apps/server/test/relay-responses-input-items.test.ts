import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * GET /v1/responses/{id}/input_items read with the `openai` SDK's `responses.inputItems.list`: the stored
 * conversation as items, newest first by default, paged by the SDK's own cursor (`after` = the last id).
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('alpha');
  kit = await startRelayKit();
  await kit.createChannel({ upstream, models: 'gpt-4o' });
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});
beforeEach(async () => {
  upstream.behaviour = {};
  await kit.test.context.options.set('ResponsesStorageEnabled', 'true');
});

async function newClient() {
  const user = await kit.createUser({ quota: 1_000_000 });
  const { key } = await kit.createKey(user.id);
  return kit.client(key);
}

describe('GET /v1/responses/{id}/input_items', () => {
  it('lists the conversation a response answered, pages with the SDK, and is the owner’s alone', async () => {
    const client = await newClient();
    upstream.behaviour = { words: ['Sunny', '.'] };
    const first = await client.responses.create({
      model: 'gpt-4o',
      instructions: 'Be brief.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] }],
    });
    upstream.behaviour = { words: ['Rainy', '.'] };
    const second = await client.responses.create({
      model: 'gpt-4o',
      input: 'And Rome?',
      previous_response_id: first.id,
    });

    const page = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(page.data).toMatchObject([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sunny.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'And Rome?' }] },
    ]);
    expect(page.has_more).toBe(false);

    const newestFirst: string[] = [];
    for await (const item of client.responses.inputItems.list(second.id, { limit: 1 })) {
      newestFirst.push(item.id ?? '');
    }
    expect(newestFirst).toEqual(page.data.map((item) => item.id).reverse());

    const stranger = await newClient();
    await expect(stranger.responses.inputItems.list(second.id)).rejects.toMatchObject({ status: 404 });
  });

  it('lists function calls and their outputs', async () => {
    const client = await newClient();
    const answer = await client.responses.create({
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_9', output: '21°C' },
      ],
    });
    const page = await client.responses.inputItems.list(answer.id, { order: 'asc' });
    expect(page.data).toMatchObject([
      { type: 'message', role: 'user' },
      { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_9', output: '21°C' },
    ]);
  });

  it('answers 400 while storage is off', async () => {
    const client = await newClient();
    await kit.test.context.options.set('ResponsesStorageEnabled', 'false');
    await expect(client.responses.inputItems.list('resp_123')).rejects.toMatchObject({ status: 400 });
  });
});
