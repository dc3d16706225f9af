import { z } from 'zod';
import { VERSION } from '../status/version';
import { apiRouteTable, relayRouteTable, type ApiRouteContract } from './api-route-table';

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema, describing what a client sends (the input side of transforms). */
function toSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  delete json.$schema;
  return json as JsonSchema;
}

function queryParameters(schema: z.ZodType): JsonSchema[] {
  const json = toSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const envelope: JsonSchema = {
  type: 'object',
  required: ['success', 'message'],
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string', description: 'empty on success; the reason for the user otherwise' },
    data: { description: 'the answer, when there is one' },
  },
};

const accessText: Record<ApiRouteContract['access'], string> = {
  public: 'Anyone.',
  user: 'A signed-in user (session cookie, or a system access token in Authorization).',
  admin: 'An admin or root.',
  root: 'Root only.',
};

function operation(route: ApiRouteContract): JsonSchema {
  const parameters: JsonSchema[] = [];
  if (route.path.includes('{id}')) {
    parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  }
  if (route.query) parameters.push(...queryParameters(route.query));
  const bodies = route.bodyOneOf ?? (route.body ? [route.body] : []);
  const requestSchema =
    bodies.length > 1 ? { oneOf: bodies.map(toSchema) } : bodies[0] && toSchema(bodies[0]);
  return {
    summary: route.summary,
    description:
      accessText[route.access] +
      (route.changesState ? ' Changes state: refused when the browser says it came from another site.' : ''),
    tags: [route.tag],
    'x-access': route.access,
    ...(route.access === 'public' ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestSchema
      ? { requestBody: { required: true, content: { 'application/json': { schema: requestSchema } } } }
      : {}),
    responses: {
      '200': {
        description:
          "The envelope. A refusal that is the caller's business (bad input, not allowed) is also HTTP 200, with success false.",
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } },
      },
      '401': { description: 'Not signed in (routes that need a user).' },
      '403': { description: 'Signed in without the needed role, or a cross-site request refused.' },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the management API, generated from the route table's zod schemas, and of the
 * relay at a coarser level: its paths and the client protocol each speaks (their bodies are the vendors' own
 * published APIs, validated by the relay's codecs).
 */
export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of apiRouteTable) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  for (const relay of relayRouteTable) {
    for (const method of relay.methods) {
      (paths[relay.path] ??= {})[method.toLowerCase()] = {
        summary: relay.protocol,
        description:
          'Relay: authenticated with a Gatehouse key (Authorization: Bearer sk-…). Request and answer follow ' +
          'the named client protocol; they are not described field by field here.',
        tags: ['relay'],
        security: [{ gatehouseKey: [] }],
        'x-client-protocol': relay.protocol,
        responses: { '200': { description: "The upstream's answer in the client's protocol." } },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gatehouse API',
      version: VERSION,
      description:
        'The management API (/api) used by the console, and the relay (/v1) used by AI clients. Generated ' +
        'from the zod contracts of packages/shared; see docs/api.md.',
    },
    tags: [
      { name: 'status' },
      { name: 'accounts' },
      { name: 'self' },
      { name: 'users' },
      { name: 'options' },
      { name: 'channels' },
      { name: 'keys' },
      { name: 'redemptions' },
      { name: 'logs' },
      { name: 'relay' },
    ],
    security: [{ session: [] }, { accessToken: [] }],
    paths,
    components: {
      schemas: { Envelope: envelope },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'gatehouse_session' },
        accessToken: { type: 'apiKey', in: 'header', name: 'Authorization' },
        gatehouseKey: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
