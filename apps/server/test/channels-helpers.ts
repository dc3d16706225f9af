import type { Channel } from '@gatehouse/shared';
import { envelope, type Session, type TestApp } from './test-app';

/** A valid OpenAI channel form; tests override what they are about. */
export function channelForm(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 1,
    name: 'primary',
    key: 'sk-upstream-secret-1',
    base_url: '',
    other: '',
    model_mapping: '',
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    config: '',
    priority: 0,
    weight: 0,
    ...overrides,
  };
}

export function channelApi(test: TestApp, session: Session) {
  const call = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    envelope<T>(
      await test.app.inject({
        method,
        url,
        headers: session.headers,
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
    );
  return {
    create: (form: Record<string, unknown>) => call<{ ids: number[] }>('POST', '/api/channel/', form),
    update: (fields: Record<string, unknown>) => call<Channel>('PUT', '/api/channel/', fields),
    get: (id: number) => call<Channel>('GET', `/api/channel/${id}`),
    list: (query = '') => call<Channel[]>('GET', `/api/channel/?${query}`),
    search: (query: string) => call<Channel[]>('GET', `/api/channel/search?${query}`),
    remove: (id: number) => call('DELETE', `/api/channel/${id}/`),
    removeDisabled: () => call<number>('DELETE', '/api/channel/disabled'),
    /** creates one channel and answers its id, failing the test on a refusal */
    async createOne(form: Record<string, unknown>): Promise<number> {
      const body = await call<{ ids: number[] }>('POST', '/api/channel/', form);
      if (!body.success) throw new Error(`create refused: ${body.message}`);
      return body.data.ids[0]!;
    },
  };
}

export async function abilitiesOf(test: TestApp, channelId: number) {
  const rows = await test.context.db
    .selectFrom('abilities')
    .selectAll()
    .where('channel_id', '=', channelId)
    .orderBy('group')
    .orderBy('model')
    .execute();
  return rows.map((row) => ({ ...row, priority: Number(row.priority) }));
}
