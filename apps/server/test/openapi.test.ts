import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { apiRouteTable } from '../src/openapi/api-route-table';
import { createTestApp, type TestApp } from './test-app';

/** `/api/user/:id(^\d+$)` → `/api/user/{id}`; trailing slashes dropped (the server ignores them). */
function toOpenApiPath(url: string): string {
  const path = url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace(/\/+$/, '');
  return path === '' ? '/' : path;
}

describe('GET /api/openapi.json', () => {
  let testApp: TestApp;
  const registered = new Set<string>();

  beforeAll(async () => {
    testApp = await createTestApp(
      {},
      {
        onRoute(route: RouteOptions) {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          for (const method of methods) {
            if (method === 'HEAD' || !route.url.startsWith('/api/')) continue;
            registered.add(`${method} ${toOpenApiPath(route.url)}`);
          }
        },
      },
    );
  });
  afterAll(() => testApp.close());

  it('is an OpenAPI 3.1 document, public, with the schemas of the zod contracts', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    const login = document.paths['/api/user/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('username');
    const list = document.paths['/api/channel'].get;
    expect(list.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
      expect.arrayContaining(['p', 'size', 'keyword', 'order']),
    );
    expect(document.paths['/v1/chat/completions'].post['x-client-protocol']).toMatch(/OpenAI/);
  });

  it('describes every registered management route, and only those', () => {
    const described = new Set(apiRouteTable.map((route) => `${route.method} ${route.path}`));
    const undescribed = [...registered].filter((route) => !described.has(route)).sort();
    const unregistered = [...described].filter((route) => !registered.has(route)).sort();
    expect(undescribed, 'routes without an entry in openapi/api-route-table.ts').toEqual([]);
    expect(unregistered, 'entries in openapi/api-route-table.ts without a route').toEqual([]);
  });
});
