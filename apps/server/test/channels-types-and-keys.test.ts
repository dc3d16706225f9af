import { describe, expect, it } from 'vitest';
import { Role } from '@gatehouse/shared';
import { createUserSession } from './test-app';
import { channelApi, channelForm } from './channels-helpers';
import { createTestServiceAccount } from './support/google-token-stand-in';
import { api, test, useChannelsApp } from './support/channels-app';

/**
 * The channel API and the channel types: the defaults each type gets, the key formats it takes (composed from
 * the config for AWS and Vertex AI), and keys kept secret in lists, searches, edits and error messages.
 */
useChannelsApp();

describe('type defaults', () => {
  it('Azure (3) gets API version 2024-03-01-preview unless one is given', async () => {
    const azure = channelForm({ type: 3, base_url: 'https://acme.openai.azure.com/' });
    const byDefault = await api.createOne(azure);
    expect((await api.get(byDefault)).data).toMatchObject({
      other: '2024-03-01-preview',
      base_url: 'https://acme.openai.azure.com',
    });
    const pinned = await api.createOne({ ...azure, other: '2024-10-21' });
    expect((await api.get(pinned)).data.other).toBe('2024-10-21');
  });

  it('an empty base URL stays empty (the relay uses the type default)', async () => {
    const id = await api.createOne(channelForm({ type: 36, models: 'deepseek-chat' }));
    expect((await api.get(id)).data.base_url).toBe('');
  });

  it('AWS (33) composes ak|sk|region from the config when the key is empty', async () => {
    const config = JSON.stringify({ region: 'us-east-1', ak: 'AKIAEXAMPLE', sk: 'secret/key' });
    const id = await api.createOne(
      channelForm({ type: 33, key: '', config, models: 'claude-sonnet-4-20250514' }),
    );
    expect((await api.get(id)).data.key).toBe('AKIAEXAMPLE|secret/key|us-east-1');
    const missing = await api.create(
      channelForm({ type: 33, key: '', config: JSON.stringify({ region: 'us-east-1' }) }),
    );
    expect(missing).toMatchObject({ success: false, message: 'please fill in channel name and channel key' });
  });

  it('Baidu (15) and Tencent (23) refuse keys not in their formats, saying the format and not the key', async () => {
    const baidu = await api.create(channelForm({ type: 15, models: 'ERNIE-4.0-8K', key: 'ak|sk|extra' }));
    expect(baidu).toMatchObject({ success: false, message: expect.stringContaining('APIKey|SecretKey') });
    expect(await api.create(channelForm({ type: 15, models: 'ERNIE-4.0-8K', key: 'ak|sk' }))).toMatchObject({
      success: true,
    });
    const tencent = await api.create(
      channelForm({ type: 23, models: 'hunyuan-lite', key: 'AKIDsecret|key' }),
    );
    expect(tencent).toMatchObject({
      success: false,
      message: expect.stringContaining('AppId|SecretId|SecretKey'),
    });
    expect(tencent.message).not.toContain('AKIDsecret');
  });

  it('AWS (33) refuses a key that is not AccessKeyId|SecretAccessKey|region, saying the expected format', async () => {
    const aws = (fields: Record<string, unknown>) =>
      channelForm({ type: 33, models: 'claude-3-haiku-20240307', ...fields });
    const noRegion = await api.create(aws({ key: 'AKIAEXAMPLE|secret/key' }));
    expect(noRegion).toMatchObject({
      success: false,
      message: expect.stringContaining('AccessKeyId|SecretAccessKey|region'),
    });
    expect(noRegion.message).not.toContain('secret/key');
    const badRegion = await api.create(
      aws({ key: '', config: JSON.stringify({ region: 'Virginia', ak: 'AKIAEXAMPLE', sk: 'secret/key' }) }),
    );
    expect(badRegion).toMatchObject({
      success: false,
      message: expect.stringContaining('not an AWS region name'),
    });
    const oneBadLine = await api.create(aws({ key: 'AK1|SK1|us-east-1\nAK2|SK2' }));
    expect(oneBadLine.success).toBe(false);
    const id = await api.createOne(aws({ key: 'AK1|SK1|us-east-1' }));
    const edited = await api.update({ ...(await api.get(id)).data, key: 'AK1|SK1|' });
    expect(edited).toMatchObject({ success: false, message: expect.stringContaining('a part is empty') });
    expect((await api.get(id)).data.key).toBe('AK1|SK1|us-east-1');
  });

  it('Vertex AI (42) composes region|project|adc with the credentials on one line', async () => {
    const account = createTestServiceAccount({
      tokenUri: 'https://oauth2.googleapis.com/token',
      projectId: 'acme',
    });
    const config = JSON.stringify({
      region: 'us-central1',
      vertex_ai_project_id: 'acme',
      vertex_ai_adc: account.json,
    });
    const id = await api.createOne(channelForm({ type: 42, key: '', config, models: 'gemini-2.5-pro' }));
    expect((await api.get(id)).data.key).toBe(`us-central1|acme|${JSON.stringify(JSON.parse(account.json))}`);
    const broken = await api.create(
      channelForm({
        type: 42,
        key: 'r|p|x',
        config: JSON.stringify({ vertex_ai_adc: '{oops' }),
        models: 'gemini-2.5-pro',
      }),
    );
    expect(broken).toMatchObject({ success: false, message: 'Vertex AI credentials must be valid JSON' });
  });

  it('Vertex AI (42) refuses credentials that are not a service account key, or no region or project, saying the expected format', async () => {
    const account = createTestServiceAccount({
      tokenUri: 'https://oauth2.googleapis.com/token',
      projectId: '',
    });
    const vertex = (fields: Record<string, string>) =>
      channelForm({
        type: 42,
        key: '',
        models: 'gemini-2.5-pro',
        config: JSON.stringify({
          region: 'us-central1',
          vertex_ai_project_id: 'acme',
          vertex_ai_adc: account.json,
          ...fields,
        }),
      });
    const refusals: Array<[Record<string, string>, string]> = [
      [{ region: '' }, 'the region is empty'],
      [{ vertex_ai_project_id: '' }, 'the project id is empty'],
      [
        { vertex_ai_adc: '{"type": "authorized_user", "refresh_token": "1//0g-user"}' },
        'gcloud auth application-default login',
      ],
      [{ vertex_ai_adc: '{"type": "service_account", "project_id": "acme"}' }, 'has no client_email'],
      [
        { vertex_ai_adc: account.json.replace(/"private_key": "[^"]*"/, '"private_key": "none"') },
        'not an RSA private key',
      ],
    ];
    for (const [fields, problem] of refusals) {
      const body = await api.create(vertex(fields));
      expect(body).toMatchObject({
        success: false,
        message: expect.stringContaining('region|project id|service account key JSON'),
      });
      expect(body.message).toContain(problem);
      expect(body.message).not.toContain('PRIVATE KEY');
    }
    const typed = await api.create(
      channelForm({ type: 42, key: 'us-central1|acme|{"type":"service_account"}', models: 'gemini-2.5-pro' }),
    );
    expect(typed).toMatchObject({ success: false, message: expect.stringContaining('has no client_email') });
    expect(await api.list()).toMatchObject({ success: true, data: [] });
    const id = await api.createOne(vertex({}));
    const edited = await api.update({
      ...(await api.get(id)).data,
      key: 'us-central1||{"type":"service_account"}',
    });
    expect(edited).toMatchObject({ success: false, message: expect.stringContaining('has no client_email') });
  });
});

describe('keys are secrets', () => {
  it('lists and searches answer key "" and no credentials; GET one gives the key to root only', async () => {
    const config = JSON.stringify({ region: 'us-east-1', ak: 'AKIAHIDDEN', sk: 'sk-hidden-aws' });
    const id = await api.createOne(channelForm({ type: 33, key: '', config, name: 'aws' }));
    await api.createOne(channelForm({ name: 'openai', key: 'sk-never-listed' }));
    for (const body of [await api.list(), await api.search('keyword=a')]) {
      const text = JSON.stringify(body);
      expect(body.data.length).toBeGreaterThan(0);
      for (const secret of ['sk-never-listed', 'AKIAHIDDEN', 'sk-hidden-aws'])
        expect(text).not.toContain(secret);
      expect(body.data.every((channel) => channel.key === '')).toBe(true);
    }
    expect(JSON.parse((await api.list()).data.find((channel) => channel.id === id)!.config)).toEqual({
      region: 'us-east-1',
    });
    expect((await api.get(id)).data.key).toBe('AKIAHIDDEN|sk-hidden-aws|us-east-1');
    const admin = channelApi(test, await createUserSession(test, { role: Role.admin }));
    const forAdmin = (await admin.get(id)).data;
    expect(forAdmin.key).toBe('');
    expect(JSON.stringify(forAdmin)).not.toContain('hidden');
  });

  it('a blank key on edit keeps the stored key; a new key replaces it', async () => {
    const id = await api.createOne(channelForm({ key: 'sk-original' }));
    await api.update({ ...channelForm({ key: '', name: 'renamed' }), id });
    expect((await api.get(id)).data).toMatchObject({ key: 'sk-original', name: 'renamed' });
    await api.update({ ...channelForm({ key: 'sk-rotated' }), id });
    expect((await api.get(id)).data.key).toBe('sk-rotated');
  });

  it('an admin editing AWS without seeing the credentials keeps them; a changed region recomposes the key', async () => {
    const config = JSON.stringify({ region: 'us-east-1', ak: 'AK1', sk: 'SK1' });
    const id = await api.createOne(
      channelForm({ type: 33, key: '', config, models: 'claude-3-haiku-20240307' }),
    );
    const admin = channelApi(test, await createUserSession(test, { role: Role.admin }));
    const seen = (await admin.get(id)).data;
    const saved = await admin.update({
      ...seen,
      key: '',
      config: JSON.stringify({ region: 'eu-west-1', ak: '', sk: '' }),
    });
    expect(saved.success).toBe(true);
    const stored = (await api.get(id)).data;
    expect(stored.key).toBe('AK1|SK1|eu-west-1');
    expect(JSON.parse(stored.config)).toEqual({ region: 'eu-west-1', ak: 'AK1', sk: 'SK1' });
  });

  it('an admin cannot point a channel at a new base URL with the stored key; root can, and so can a new key', async () => {
    const id = await api.createOne(channelForm({ key: 'sk-root-only' }));
    const admin = channelApi(test, await createUserSession(test, { role: Role.admin }));
    const seen = (await admin.get(id)).data;
    // The next channel test or relayed call would carry the stored key to this address.
    const moved = await admin.update({ ...seen, key: '', base_url: 'https://collector.example' });
    expect(moved).toMatchObject({
      success: false,
      message: 'Enter the channel key again to change its base URL',
    });
    expect((await api.get(id)).data).toMatchObject({ key: 'sk-root-only', base_url: '' });

    const rekeyed = await admin.update({ ...seen, key: 'sk-admin-typed', base_url: 'https://proxy.example' });
    expect(rekeyed.success).toBe(true);
    expect((await api.get(id)).data).toMatchObject({
      key: 'sk-admin-typed',
      base_url: 'https://proxy.example',
    });

    const byRoot = await api.update({ ...seen, key: '', base_url: 'https://other.example' });
    expect(byRoot.success).toBe(true);
    expect((await api.get(id)).data).toMatchObject({
      key: 'sk-admin-typed',
      base_url: 'https://other.example',
    });
  });

  it('an admin moving AWS to a new base URL must give the credentials again', async () => {
    const config = JSON.stringify({ region: 'us-east-1', ak: 'AK1', sk: 'SK1' });
    const id = await api.createOne(
      channelForm({ type: 33, key: '', config, models: 'claude-3-haiku-20240307' }),
    );
    const admin = channelApi(test, await createUserSession(test, { role: Role.admin }));
    const seen = (await admin.get(id)).data;
    const blank = JSON.stringify({ region: 'us-east-1', ak: '', sk: '' });
    const moved = await admin.update({
      ...seen,
      key: '',
      config: blank,
      base_url: 'https://collector.example',
    });
    expect(moved.success).toBe(false);
    const fresh = JSON.stringify({ region: 'us-east-1', ak: 'AK2', sk: 'SK2' });
    const rekeyed = await admin.update({
      ...seen,
      key: '',
      config: fresh,
      base_url: 'https://proxy.example',
    });
    expect(rekeyed.success).toBe(true);
    expect((await api.get(id)).data.key).toBe('AK2|SK2|us-east-1');
  });

  it('never puts a key in an error message', async () => {
    const body = await api.create(channelForm({ key: 'sk-leak-check', models: '' }));
    expect(body.success).toBe(false);
    expect(body.message).not.toContain('sk-leak-check');
  });
});
