import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './lazy-schema-compilers';

describe('lazySchemaCompilers', () => {
  it('still validates bodies and shapes answers for a route that declares JSON schemas', async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    app.post(
      '/echo',
      {
        schema: {
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      async (request) => ({ ...(request.body as object), secret: 'not in the schema' }),
    );
    const refused = await app.inject({ method: 'POST', url: '/echo', payload: { other: 1 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain("must have required property 'name'");
    const answered = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'a' } });
    expect(answered.json()).toEqual({ name: 'a' });
    await app.close();
  });
});
