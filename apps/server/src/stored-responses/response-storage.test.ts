import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowSeconds } from '@gatehouse/shared';
import { loadConfig } from '../config/config';
import { closeContext, createContext, type AppContext } from '../context';
import { convertResponsesRequest } from '../protocols/openai-responses/convert-responses-request';
import { convertToResponsesResponse } from '../protocols/openai-responses/convert-to-responses-response';
import { createResponsesContext } from '../protocols/openai-responses/responses-object';
import type { ResponsesObject } from '../protocols/openai-responses/responses-types';
import { RelayError } from '../relay/relay-error';
import { externalDatabaseServers, isListening } from '../../test/support/external-databases';
import {
  deleteResponse,
  getStoredResponse,
  loadPreviousConversation,
  saveResponse,
  shouldStoreResponse,
} from './response-storage';
import { pruneStoredResponses } from './stored-response-pruning';

const alice = { userId: 101, tokenId: 1 };
const bob = { userId: 202, tokenId: 2 };

function answerTo(input: string, text: string, createdAt = nowSeconds()): ResponsesObject {
  const request = convertResponsesRequest({ model: 'gpt-4o', input, instructions: 'Be brief.' });
  const context = { ...createResponsesContext(request.echo), createdAt };
  return convertToResponsesResponse(
    {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: createdAt,
      model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    },
    context,
  );
}

async function refusalOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (!(error instanceof RelayError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.statusCode, param: error.param, code: error.code, message: error.message };
}

/** The same behaviour on SQLite and, when this machine runs them, PostgreSQL and MySQL. */
const databases: Array<{
  name: string;
  open: () => Promise<{ dsnEnv: Record<string, string>; drop: () => Promise<void> }>;
}> = [
  {
    name: 'SQLite',
    open: async () => {
      const folder = mkdtempSync(path.join(tmpdir(), 'gatehouse-responses-'));
      return {
        dsnEnv: { SQLITE_PATH: path.join(folder, 'test.db') },
        drop: async () => rmSync(folder, { recursive: true, force: true }),
      };
    },
  },
];
for (const server of externalDatabaseServers) {
  if (await isListening(server.port)) {
    databases.push({
      name: server.name,
      open: async () => {
        const database = await server.create('gatehouse_responses');
        return { dsnEnv: { SQL_DSN: database.dsn }, drop: database.drop };
      },
    });
  }
}

describe.each(databases)('stored responses on $name', ({ open }) => {
  let context: AppContext;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await open();
    drop = database.drop;
    context = await createContext(
      loadConfig({ ...database.dsnEnv, SESSION_SECRET: 'responses-storage-test' }),
    );
  });
  afterAll(async () => {
    await closeContext(context);
    await drop();
  });

  it('refuses previous_response_id, GET and DELETE with a 400 saying how to turn storage on while it is off', async () => {
    await context.options.set('ResponsesStorageEnabled', 'false');
    const previous = await refusalOf(loadPreviousConversation(context, alice.userId, 'resp_1'));
    expect(previous).toMatchObject({ status: 400, param: 'previous_response_id' });
    expect(previous.message).toMatch(/turned off.*ResponsesStorageEnabled/);
    expect(await refusalOf(getStoredResponse(context, alice.userId, 'resp_1'))).toMatchObject({
      status: 400,
    });
    expect(await refusalOf(deleteResponse(context, alice.userId, 'resp_1'))).toMatchObject({ status: 400 });
    expect(shouldStoreResponse(context.options, convertResponsesRequest({ model: 'm', input: 'x' }))).toBe(
      false,
    );
  });

  it('keeps a response for its own user only, and continues its conversation', async () => {
    await context.options.set('ResponsesStorageEnabled', 'true');
    expect(shouldStoreResponse(context.options, convertResponsesRequest({ model: 'm', input: 'x' }))).toBe(
      true,
    );
    expect(
      shouldStoreResponse(context.options, convertResponsesRequest({ model: 'm', input: 'x', store: false })),
    ).toBe(false);
    const response = answerTo('Weather in Paris?', 'Sunny.');
    const messages = [{ role: 'user' as const, content: 'Weather in Paris?' }];
    await saveResponse(context, alice, { messages, foundTools: [] }, response);

    expect(await getStoredResponse(context, alice.userId, response.id)).toEqual(response);
    expect(await loadPreviousConversation(context, alice.userId, response.id)).toEqual({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: 'Sunny.' },
      ],
      foundTools: [],
    });

    expect(await refusalOf(getStoredResponse(context, bob.userId, response.id))).toMatchObject({
      status: 404,
    });
    expect(await refusalOf(deleteResponse(context, bob.userId, response.id))).toMatchObject({ status: 404 });
    expect(await refusalOf(loadPreviousConversation(context, bob.userId, response.id))).toMatchObject({
      status: 400,
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });

    expect(await deleteResponse(context, alice.userId, response.id)).toEqual({
      id: response.id,
      object: 'response',
      deleted: true,
    });
    expect(await refusalOf(getStoredResponse(context, alice.userId, response.id))).toMatchObject({
      status: 404,
    });
  });

  it('stores conversations larger than 64 KB', async () => {
    await context.options.set('ResponsesStorageEnabled', 'true');
    const image = `data:image/png;base64,${'A'.repeat(200_000)}`;
    const conversation = [
      { role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url: image } }] },
    ];
    const response = answerTo('What is it?', 'A picture.');
    await saveResponse(context, alice, { messages: conversation, foundTools: [] }, response);
    expect((await loadPreviousConversation(context, alice.userId, response.id)).messages[0]).toEqual(
      conversation[0],
    );
  });

  it('keeps the tools tool searches found with the conversation, and reads rows stored before them', async () => {
    await context.options.set('ResponsesStorageEnabled', 'true');
    const found = [{ type: 'namespace', name: 'mcp__docs', tools: [{ type: 'function', name: 'lookup' }] }];
    const messages = [{ role: 'user' as const, content: 'Look it up' }];
    const withTools = answerTo('Look it up', 'Found it.');
    await saveResponse(context, alice, { messages, foundTools: found }, withTools);
    expect(await loadPreviousConversation(context, alice.userId, withTools.id)).toEqual({
      messages: [...messages, { role: 'assistant', content: 'Found it.' }],
      foundTools: found,
    });

    // a row written as a bare message array, as every row was before
    const older = answerTo('Hello', 'Hi.');
    await saveResponse(
      context,
      alice,
      { messages: [{ role: 'user', content: 'Hello' }], foundTools: [] },
      older,
    );
    const row = await context.db
      .selectFrom('stored_responses')
      .select('conversation')
      .where('id', '=', older.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.conversation)).toEqual([{ role: 'user', content: 'Hello' }]);
    expect((await loadPreviousConversation(context, alice.userId, older.id)).foundTools).toEqual([]);
  });

  it('stops answering expired responses and prunes them, keeping the others', async () => {
    await context.options.set('ResponsesStorageEnabled', 'true');
    await context.options.set('ResponsesRetentionDays', '30');
    const expired = answerTo('Old question', 'Old answer', nowSeconds() - 31 * 86_400);
    const fresh = answerTo('New question', 'New answer', nowSeconds() - 29 * 86_400);
    await saveResponse(context, alice, { messages: [], foundTools: [] }, expired);
    await saveResponse(context, alice, { messages: [], foundTools: [] }, fresh);

    expect(await refusalOf(getStoredResponse(context, alice.userId, expired.id))).toMatchObject({
      status: 404,
    });
    expect(await pruneStoredResponses(context)).toBeGreaterThanOrEqual(1);
    const left = await context.db.selectFrom('stored_responses').select('id').execute();
    expect(left.map((row) => row.id)).toContain(fresh.id);
    expect(left.map((row) => row.id)).not.toContain(expired.id);
    expect((await getStoredResponse(context, alice.userId, fresh.id)).id).toBe(fresh.id);
  });

  it('prunes a backlog larger than one batch', async () => {
    const old = nowSeconds() - 40 * 86_400;
    const rows = Array.from({ length: 1_203 }, (_unused, index) => ({
      id: `resp_backlog_${index}`,
      user_id: bob.userId,
      token_id: bob.tokenId,
      model: 'm',
      conversation: '[]',
      response: '{}',
      created_at: old,
    }));
    for (let start = 0; start < rows.length; start += 200) {
      await context.db
        .insertInto('stored_responses')
        .values(rows.slice(start, start + 200))
        .execute();
    }
    expect(await pruneStoredResponses(context)).toBe(1_203);
    expect(await pruneStoredResponses(context)).toBe(0);
  });
});
