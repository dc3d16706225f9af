import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import type { Log } from '@gatehouse/shared';
import { startOpenAIUpstream, type OpenAIUpstream } from './support/openai-upstream';
import { startRelayKit, type RelayKit } from './support/relay-kit';
import { envelope, loginAs } from './test-app';

/**
 * Audio and image tokens through the real relay: an OpenAI stand-in reports them in each endpoint's own usage
 * shape (chat's prompt/completion_tokens_details, gpt-image-1's input_tokens_details, a transcription's
 * input_token_details), and the log entry carries them in their own columns with the ratios that priced
 * them; the charge equals the formula in docs/billing.md worked by hand, with group ratio 2.
 */
let kit: RelayKit;
let upstream: OpenAIUpstream;

beforeAll(async () => {
  upstream = await startOpenAIUpstream('openai');
  kit = await startRelayKit();
  await kit.createChannel({
    upstream,
    models: 'gpt-4o-audio-preview,gpt-image-1,gpt-4o-transcribe',
  });
  await kit.test.context.options.set('GroupRatio', JSON.stringify({ default: 2 }));
});
afterAll(async () => {
  await kit.close();
  await upstream.close();
});

async function newUser() {
  const user = await kit.createUser({ quota: 100_000_000 });
  const { key } = await kit.createKey(user.id, { isUnlimited: false, remainQuota: 50_000_000 });
  const session = await loginAs(kit.test, user.username, 'password123');
  return { user, key, session };
}

async function lastLog(headers: Record<string, string>): Promise<Log> {
  await kit.settle();
  const body = envelope<Log[]>(await kit.test.app.inject({ url: '/api/log/self?p=0', headers }));
  expect(body.success).toBe(true);
  return body.data[0];
}

/** The charge worked from the log entry alone, as docs/billing.md tells a user to. */
function recompute(log: Log): number {
  const fresh =
    log.prompt_tokens -
    log.cache_read_tokens -
    log.cache_write_tokens -
    log.audio_input_tokens -
    log.image_input_tokens;
  const textCompletion = log.completion_tokens - log.audio_output_tokens - log.image_output_tokens;
  const weighted =
    fresh +
    log.cache_read_tokens * log.cache_read_ratio +
    log.cache_write_tokens * log.cache_write_ratio +
    log.audio_input_tokens * log.audio_input_ratio +
    log.image_input_tokens * log.image_input_ratio +
    (textCompletion +
      log.audio_output_tokens * log.audio_output_ratio +
      log.image_output_tokens * log.image_output_ratio) *
      log.completion_ratio;
  return Math.ceil(Math.round(weighted * log.model_ratio * log.group_ratio * 1e6) / 1e6);
}

/** The log entry charged `quota`, the user can recompute it from the entry, and their balance dropped by it. */
async function expectCharged(log: Log, userId: number, quota: number): Promise<void> {
  expect(log.quota).toBe(quota);
  expect(recompute(log)).toBe(log.quota);
  expect(await kit.userQuota(userId)).toBe(100_000_000 - quota);
}

describe('audio and image tokens through the relay', () => {
  it('bills an audio chat (gpt-4o-audio-preview) by its audio input and output tokens', async () => {
    const { user, key, session } = await newUser();
    upstream.behaviour = { usage: { prompt: 1000, completion: 500, audioInput: 600, audioOutput: 400 } };
    const wav = Buffer.from('RIFF-fake-wav-question').toString('base64');
    const completion = await kit.client(key).chat.completions.create({
      model: 'gpt-4o-audio-preview',
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Answer the question in the recording' },
            { type: 'input_audio', input_audio: { data: wav, format: 'wav' } },
          ],
        },
      ],
      max_tokens: 1000,
    });
    expect(completion.choices[0].message.audio?.transcript).toBe('Hello from openai');
    expect(completion.usage?.prompt_tokens_details?.audio_tokens).toBe(600);
    // The audio reached the vendor as the client sent it.
    const sent = upstream.received.at(-1)!.json as { messages: Array<{ content: Array<{ type: string }> }> };
    expect(sent.messages[0].content[1]).toEqual({
      type: 'input_audio',
      input_audio: { data: wav, format: 'wav' },
    });
    const log = await lastLog(session.headers);
    // gpt-4o-audio-preview: $2.50 / $10 per 1M text (model ratio 1.25, completion ratio 4), audio input
    // 16 × text input, audio output 8 × text output.
    expect(log).toMatchObject({
      model_name: 'gpt-4o-audio-preview',
      prompt_tokens: 1000,
      completion_tokens: 500,
      audio_input_tokens: 600,
      audio_output_tokens: 400,
      image_input_tokens: 0,
      image_output_tokens: 0,
      model_ratio: 1.25,
      completion_ratio: 4,
      audio_input_ratio: 16,
      audio_output_ratio: 8,
      group_ratio: 2,
    });
    // (400 text + 600 × 16 + (100 text + 400 × 8) × 4) × 1.25 × 2 = 23,200 × 2.5 = 58,000
    await expectCharged(log, user.id, 58_000);
  });

  it('bills a gpt-image-1 generation by its image input tokens', async () => {
    const { user, key, session } = await newUser();
    upstream.behaviour = { usage: { prompt: 50, completion: 4160, imageInput: 40 } };
    const image = await kit.client(key).images.generate({
      model: 'gpt-image-1',
      prompt: 'A lighthouse at dusk in the style of the reference',
      size: '1024x1024',
      quality: 'high',
    });
    expect(image.data?.[0].b64_json).toBeTruthy();
    expect(image.usage?.input_tokens_details.image_tokens).toBe(40);
    const log = await lastLog(session.headers);
    // gpt-image-1: $5 text input (model ratio 2.5), $40 image output (completion ratio 8), $10 image input (2×).
    expect(log).toMatchObject({
      model_name: 'gpt-image-1',
      prompt_tokens: 50,
      completion_tokens: 4160,
      image_input_tokens: 40,
      audio_input_tokens: 0,
      model_ratio: 2.5,
      completion_ratio: 8,
      image_input_ratio: 2,
      group_ratio: 2,
    });
    // (10 text + 40 × 2 + 4,160 × 8) × 2.5 × 2 = 33,370 × 5 = 166,850
    await expectCharged(log, user.id, 166_850);
  });

  it('bills a gpt-4o-transcribe transcription by its audio tokens (input_token_details)', async () => {
    const { user, key, session } = await newUser();
    upstream.behaviour = { usage: { prompt: 14, completion: 45, audioInput: 14 } };
    const file = await toFile(Buffer.from('RIFF-fake-wav'), 'speech.wav', { type: 'audio/wav' });
    const transcript = await kit
      .client(key)
      .audio.transcriptions.create({ model: 'gpt-4o-transcribe', file });
    expect(transcript.text).toBe('the quick brown fox');
    const log = await lastLog(session.headers);
    // gpt-4o-transcribe: $2.50 / $10 per 1M text (1.25, 4), audio input $6 per 1M (2.4 × text input).
    expect(log).toMatchObject({
      model_name: 'gpt-4o-transcribe',
      prompt_tokens: 14,
      completion_tokens: 45,
      audio_input_tokens: 14,
      model_ratio: 1.25,
      completion_ratio: 4,
      audio_input_ratio: 2.4,
      group_ratio: 2,
    });
    // (0 text + 14 × 2.4 + 45 × 4) × 1.25 × 2 = 213.6 × 2.5 = 534
    await expectCharged(log, user.id, 534);
  });

  it("writes the media tokens and ratios into the user's CSV export", async () => {
    const { key, session } = await newUser();
    upstream.behaviour = { usage: { prompt: 1000, completion: 500, audioInput: 600, audioOutput: 400 } };
    await kit.client(key).chat.completions.create({
      model: 'gpt-4o-audio-preview',
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    await kit.settle();
    const response = await kit.test.app.inject({ url: '/api/log/self/export', headers: session.headers });
    expect(response.statusCode).toBe(200);
    const [header, line] = response.body.trim().split('\r\n');
    const names = header.split(',');
    const cells = line.split(',');
    const cell = (name: string) => cells[names.indexOf(name)];
    expect(names).toEqual(expect.arrayContaining(['audio_input_tokens', 'image_output_ratio']));
    expect(cell('audio_input_tokens')).toBe('600');
    expect(cell('audio_output_tokens')).toBe('400');
    expect(cell('image_input_tokens')).toBe('0');
    expect(cell('audio_input_ratio')).toBe('16');
    expect(cell('audio_output_ratio')).toBe('8');
    expect(cell('quota')).toBe('58000');
  });
});
