import { describe, expect, it } from 'vitest';
import type { Channel } from '@gatehouse/shared';
import {
  channelToFormValues,
  newChannelFormValues,
  toChannelPayload,
  validateChannelForm,
  type ChannelFormValues,
} from './channel-form-schema';

const form = (overrides: Partial<ChannelFormValues> = {}): ChannelFormValues => ({
  ...newChannelFormValues(),
  name: 'primary',
  key: 'sk-1',
  models: ['gpt-4o'],
  ...overrides,
});
const create = { isCreate: true, hasStoredKey: false };
const messages = (values: ChannelFormValues, context = create) =>
  validateChannelForm(values, context).map((issue) => `${issue.path}: ${issue.message}`);

describe('validateChannelForm', () => {
  it('accepts a complete OpenAI channel', () => {
    expect(messages(form())).toEqual([]);
  });

  it('asks for name and key on create, but not for the key on edit', () => {
    expect(messages(form({ name: ' ' }))).toEqual(['name: channels.validation.nameAndKeyRequired']);
    expect(messages(form({ key: '' }))).toEqual(['key: channels.validation.nameAndKeyRequired']);
    expect(messages(form({ key: '' }), { isCreate: false, hasStoredKey: true })).toEqual([]);
  });

  it('composes the AWS and Vertex keys from their fields', () => {
    const aws = form({ type: 33, key: '' });
    expect(messages(aws)).toEqual(['key: channels.validation.nameAndKeyRequired']);
    expect(messages({ ...aws, config: { ...aws.config, region: 'us-east-1', ak: 'a', sk: 'b' } })).toEqual(
      [],
    );
    const vertex = form({ type: 42, key: '' });
    const config = {
      ...vertex.config,
      region: 'us-central1',
      vertex_ai_project_id: 'p',
      vertex_ai_adc: '{oops',
    };
    expect(messages({ ...vertex, config })).toEqual([
      'key: channels.validation.nameAndKeyRequired',
      'config.vertex_ai_adc: channels.validation.vertexCredentialsInvalid',
    ]);
  });

  it('needs a model except for Proxy (43), a group, and a valid mapping and base URL', () => {
    expect(messages(form({ models: [] }))).toEqual(['models: channels.validation.modelsRequired']);
    expect(messages(form({ type: 43, models: [], base_url: 'https://proxy.example' }))).toEqual([]);
    expect(messages(form({ groups: [] }))).toEqual(['groups: channels.validation.groupRequired']);
    expect(messages(form({ model_mapping: '{"a": b}' }))).toEqual([
      'model_mapping: channels.validation.modelMappingInvalid',
    ]);
    expect(messages(form({ model_mapping: '{"a": 1}' }))).toEqual([
      'model_mapping: channels.validation.modelMappingNotObject',
    ]);
    expect(messages(form({ base_url: 'ftp://x' }))).toEqual(['base_url: channels.validation.baseUrlInvalid']);
    expect(messages(form({ type: 8, base_url: '' }))).toEqual([
      'base_url: channels.validation.baseUrlRequired',
    ]);
  });
});

describe('toChannelPayload', () => {
  it('joins lists, removes the trailing slash, ignores empty numbers and clamps the weight', () => {
    const payload = toChannelPayload(
      form({
        models: ['gpt-4o', 'o3'],
        groups: ['default', 'vip'],
        base_url: 'https://api.example.com/',
        priority: '',
        weight: -4,
      }),
    );
    expect(payload).toMatchObject({
      models: 'gpt-4o,o3',
      group: 'default,vip',
      base_url: 'https://api.example.com',
    });
    expect(payload).not.toHaveProperty('priority');
    expect(payload.weight).toBe(0);
  });

  it('keeps the lines of a batch key and sends only the config fields of the type', () => {
    const batch = toChannelPayload(form({ batch: true, key: 'sk-a\nsk-b\n' }));
    expect(batch.key).toBe('sk-a\nsk-b\n');
    const base = form({ type: 33, key: 'ignored' });
    const aws = toChannelPayload({
      ...base,
      config: { ...base.config, region: 'r', ak: 'a', sk: '', user_id: 'x' },
    });
    expect(aws.key).toBe('');
    expect(JSON.parse(aws.config)).toEqual({ region: 'r', ak: 'a' });
    expect(toChannelPayload(form()).config).toBe('');
  });

  it('round-trips a stored channel through the form', () => {
    const channel = {
      id: 5,
      type: 3,
      name: 'azure',
      key: '',
      base_url: 'https://acme.openai.azure.com',
      other: '2024-03-01-preview',
      model_mapping: '{"gpt-35-turbo":"gpt-3.5-turbo"}',
      models: 'gpt-4o,gpt-3.5-turbo',
      group: 'default,vip',
      config: '',
      priority: 2,
      weight: 1,
    } as Channel;
    const payload = toChannelPayload(channelToFormValues(channel));
    expect(payload).toMatchObject({
      type: 3,
      base_url: channel.base_url,
      other: channel.other,
      models: channel.models,
      group: channel.group,
      priority: 2,
      weight: 1,
    });
    expect(JSON.parse(payload.model_mapping)).toEqual({ 'gpt-35-turbo': 'gpt-3.5-turbo' });
  });
});
