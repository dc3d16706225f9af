import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, envelope, loginAs, type Session, type TestApp } from './test-app';
import { externalDatabaseServers, isListening } from './support/external-databases';

/**
 * Odd query strings and path ids on every list, search and by-id route of the management API: a page far past
 * the end is simply empty, anything else malformed is a clear `success: false` (HTTP 200, the API's envelope),
 * never a 500. The same on PostgreSQL and MySQL when the machine runs them: their integer columns refuse values
 * SQLite would take.
 */
const HUGE = '99999999999999999999999';

const LISTS = [
  '/api/user/',
  '/api/token/',
  '/api/token/search?keyword=x',
  '/api/channel/',
  '/api/channel/search?keyword=x',
  '/api/redemption/',
  '/api/redemption/search?keyword=x',
  '/api/log/',
  '/api/log/self/',
];

const SEARCHES = ['/api/user/search', '/api/token/search', '/api/channel/search', '/api/redemption/search'];

const BY_ID = [
  ['GET', '/api/user/'],
  ['GET', '/api/token/'],
  ['DELETE', '/api/token/'],
  ['GET', '/api/channel/'],
  ['DELETE', '/api/channel/'],
  ['GET', '/api/channel/test/'],
  ['GET', '/api/redemption/'],
  ['DELETE', '/api/redemption/'],
] as const;

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

const databases = [{ name: 'SQLite', create: async () => ({ env: {}, drop: async () => {} }) }];
for (const server of externalDatabaseServers) {
  if (await isListening(server.port)) {
    databases.push({
      name: server.name,
      create: async () => {
        const database = await server.create('gatehouse_query');
        return { env: { SQL_DSN: database.dsn }, drop: database.drop };
      },
    });
  }
}

describe.each(databases)('odd query input on $name', ({ create }) => {
  let test: TestApp;
  let root: Session;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await create();
    drop = database.drop;
    test = await createTestApp(database.env);
    root = await loginAs(test, 'root', '123456');
  });
  afterAll(async () => {
    await test.close();
    await drop();
  });

  const get = async (url: string, method: 'GET' | 'DELETE' | 'PUT' = 'GET') => {
    const response = await test.app.inject({ method, url, headers: root.headers });
    expect(response.statusCode, `${method} ${url}`).toBe(200);
    return envelope<unknown>(response);
  };

  const expectRefused = async (url: string, message: RegExp, method: 'GET' | 'DELETE' | 'PUT' = 'GET') => {
    expect(await get(url, method), `${method} ${url}`).toMatchObject({
      success: false,
      message: expect.stringMatching(message),
    });
  };

  it('answers a page far past the end as an empty list', async () => {
    for (const url of LISTS) {
      for (const query of [`p=${HUGE}`, 'p=9007199254740993', `p=1000000&size=${HUGE}`]) {
        expect(await get(withQuery(url, query)), withQuery(url, query)).toEqual({
          success: true,
          message: '',
          data: [],
          // The log lists also say there is no next page (keyset paging).
          ...(url.startsWith('/api/log/') ? { next_cursor: null } : {}),
        });
      }
    }
    expect(await get(`/api/log/?p=${HUGE}&num=10000`)).toMatchObject({ success: true, data: [] });
  });

  it('refuses a negative or non-numeric page or size, naming the parameter', async () => {
    for (const url of LISTS) {
      await expectRefused(withQuery(url, 'p=-1'), /^p must not be negative$/);
      await expectRefused(withQuery(url, 'p=abc'), /^p must be a whole number$/);
      await expectRefused(withQuery(url, 'p=1.5'), /^p must be a whole number$/);
      await expectRefused(withQuery(url, 'p=1e3'), /^p must be a whole number$/);
      await expectRefused(withQuery(url, 'size=-5'), /^size must not be negative$/);
      await expectRefused(withQuery(url, 'size=ten'), /^size must be a whole number$/);
    }
  });

  it('refuses a parameter given more than once, on every route', async () => {
    const repeated = [
      '/api/user/?order=id&order=quota',
      '/api/user/?p=0&p=1',
      '/api/user/search?keyword=a&keyword=b',
      '/api/token/?order=used_quota&order=remain_quota',
      '/api/token/search?keyword=a&keyword=b',
      '/api/channel/?order=name&order=id',
      '/api/channel/search?keyword=a&keyword=b',
      '/api/redemption/?p=0&p=0',
      '/api/redemption/search?keyword=a&keyword=b',
      '/api/log/?username=a&username=b',
      '/api/log/self/?type=1&type=2',
      '/api/log/stat?channel=1&channel=2',
      '/api/log/self/stat?model_name=a&model_name=b',
      '/api/channel/test?scope=all&scope=disabled',
    ];
    for (const url of repeated) {
      const name = /[?&]([a-z_]+)=[^&]*&\1=/.exec(url)?.[1];
      await expectRefused(url, new RegExp(`^parameter ${name} was given more than once$`));
    }
    await expectRefused('/api/log/?target_timestamp=1&target_timestamp=2', /given more than once/, 'DELETE');
    await expectRefused('/api/token/?status_only=true&status_only=false', /given more than once/, 'PUT');
  });

  it('searches for a huge number as text, without comparing it to an id', async () => {
    for (const url of SEARCHES) {
      for (const keyword of ['99999999999', HUGE]) {
        expect(await get(`${url}?keyword=${keyword}`), `${url}?keyword=${keyword}`).toEqual({
          success: true,
          message: '',
          data: [],
        });
      }
    }
  });

  it('refuses ids that no row can have', async () => {
    for (const [method, base] of BY_ID) {
      for (const id of ['99999999999999999999', '2147483648', HUGE]) {
        await expectRefused(`${base}${id}`, /^Invalid id$/, method);
      }
    }
  });

  it('refuses ids in a request body that no row can have', async () => {
    const edits = [
      ['/api/user/', { display_name: 'x' }],
      ['/api/token/', { name: 'x', remain_quota: 0, expired_time: -1, unlimited_quota: true }],
      ['/api/token/?status_only=true', { status: 1 }],
      ['/api/channel/', { name: 'x' }],
      ['/api/redemption/', { name: 'x', quota: 1 }],
      ['/api/redemption/?status_only=true', { status: 2 }],
    ] as const;
    for (const [url, fields] of edits) {
      for (const id of [2147483648, 99999999999, '2147483648']) {
        const response = await test.app.inject({
          method: 'PUT',
          url,
          payload: { ...fields, id },
          headers: root.headers,
        });
        expect(response.statusCode, `PUT ${url} id ${id}`).toBe(200);
        expect(envelope(response), `PUT ${url} id ${id}`).toEqual({ success: false, message: 'Invalid id' });
      }
    }
  });

  it('refuses log filters out of range, naming the filter', async () => {
    for (const url of ['/api/log/', '/api/log/self/', '/api/log/stat', '/api/log/self/stat']) {
      await expectRefused(withQuery(url, `start_timestamp=${HUGE}`), /^start_timestamp must be at most/);
      await expectRefused(withQuery(url, 'end_timestamp=1e12'), /^end_timestamp must be a whole number$/);
      await expectRefused(withQuery(url, 'end_timestamp=-3'), /^end_timestamp must not be negative$/);
      await expectRefused(withQuery(url, `channel=${HUGE}`), /^channel must be at most 2147483647$/);
      await expectRefused(withQuery(url, `type=${HUGE}`), /^type must be 0 \(all\)/);
      await expectRefused(withQuery(url, 'type=-1'), /^type must not be negative$/);
      await expectRefused(withQuery(url, `num=abc`), /^num must be a whole number$/);
    }
    expect(await get(`/api/log/stat?start_timestamp=0&end_timestamp=253402300799`)).toEqual({
      success: true,
      message: '',
      data: { quota: 0 },
    });
    await expectRefused(`/api/log/?target_timestamp=${HUGE}`, /^target_timestamp must be at most/, 'DELETE');
    await expectRefused('/api/log/?target_timestamp=soon', /^target_timestamp must be/, 'DELETE');
  });
});
