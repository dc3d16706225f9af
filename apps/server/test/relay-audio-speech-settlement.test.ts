import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@gatehouse/shared';
import { startRelayKit, type RelayKit } from './support/relay-kit';

/**
 * Audio speech keeps the ledger's promise like chat: the audio streams as it comes, but its last bytes and
 * the end of the body wait until the charge is committed, and audio cut by the upstream is not billed.
 */
const FIRST = Buffer.from('ID3 first part of the audio ');
const LAST = Buffer.from('and its last part');

/** What the speech stand-in does after its first chunk: finish when told, or break the connection. */
interface SpeechTurn {
  arrived: Promise<void>;
  /** sends the last chunk and the end */
  finish(): void;
  /** resolves once the stand-in has written everything */
  written: Promise<void>;
}

let kit: RelayKit;
let server: Server;
let nextTurn: {
  mode: 'finish' | 'break';
  turn: SpeechTurn;
  onArrive: () => void;
  onWritten: () => void;
  go: Promise<void>;
};

function prepareTurn(mode: 'finish' | 'break'): SpeechTurn {
  let onArrive = () => {};
  let onWritten = () => {};
  let finish = () => {};
  const arrived = new Promise<void>((resolve) => (onArrive = resolve));
  const written = new Promise<void>((resolve) => (onWritten = resolve));
  const go = new Promise<void>((resolve) => (finish = resolve));
  const turn = { arrived, finish, written };
  nextTurn = { mode, turn, onArrive, onWritten, go };
  return turn;
}

/** OpenAI's POST /v1/audio/speech on 127.0.0.1: the audio in two chunks, the second when the test says. */
async function answerSpeech(response: ServerResponse) {
  const { mode, onArrive, onWritten, go } = nextTurn;
  response.writeHead(200, { 'content-type': 'audio/mpeg' });
  response.write(FIRST);
  onArrive();
  await go;
  if (mode === 'break') {
    response.write(LAST);
    // Let the chunk leave before the connection breaks without its end.
    setTimeout(() => {
      response.socket?.destroy();
      onWritten();
    }, 50);
    return;
  }
  response.end(LAST, () => onWritten());
}

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => void answerSpeech(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  kit = await startRelayKit();
  await kit.createChannel({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    models: 'tts-1',
  });
});
afterAll(async () => {
  await kit.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function speak(key: string) {
  return fetch(`${kit.gatewayUrl}/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', input: 'Hello there', voice: 'alloy' }),
  });
}

async function speechLogs(userId: number) {
  return kit.test.context.db
    .selectFrom('logs')
    .select(['quota', 'type', 'content'])
    .where('user_id', '=', userId)
    .execute();
}

describe('audio speech and the ledger', () => {
  it('sends the audio as it comes but holds its last bytes until the charge is committed', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    const turn = prepareTurn('finish');
    const answered = speak(key);
    const received: Buffer[] = [];
    let status = 0;
    let isDone = false;
    const client = (async () => {
      const response = await answered;
      status = response.status;
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received.push(Buffer.from(value));
      }
      isDone = true;
    })();
    await turn.arrived;
    // Gives the gateway time to read the first chunk on its own (else both may come as one).
    await sleep(300);
    // The reservation is taken (the upstream was called); now the database is busy with another writer, so
    // the settlement's transaction must wait for it.
    let release = () => {};
    let isHeld = () => {};
    const held = new Promise<void>((resolve) => (isHeld = resolve));
    const holding = kit.test.context.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', user.id).execute();
      isHeld();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await held;
    turn.finish();
    await turn.written;
    // The upstream has sent everything; a gateway that did not wait would have ended the body long since.
    await sleep(500);
    expect(isDone).toBe(false);
    // Sent so far: the first chunk (streamed as it came) or, when both came as one, nothing yet.
    expect(FIRST.toString().startsWith(Buffer.concat(received).toString())).toBe(true);
    // (The logs cannot be read here: the held transaction has the database.)
    release();
    await holding;
    await client;
    expect(status).toBe(200);
    expect(Buffer.concat(received).toString()).toBe(Buffer.concat([FIRST, LAST]).toString());
    const logs = await speechLogs(user.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: LogType.consume });
    expect(Number(logs[0].quota)).toBeGreaterThan(0);
    expect(await kit.userQuota(user.id)).toBe(1_000_000 - Number(logs[0].quota));
    expect(await kit.test.context.db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
  }, 30_000);

  it('cuts the connection and bills nothing when the upstream breaks mid-audio', async () => {
    const user = await kit.createUser({ quota: 1_000_000 });
    const { key } = await kit.createKey(user.id);
    const turn = prepareTurn('break');
    const answered = speak(key);
    await turn.arrived;
    await sleep(300);
    turn.finish();
    const response = await answered;
    // Cut after the audio started: the connection breaks; before (both chunks came as one): an error answer.
    if (response.status === 200) await expect(response.arrayBuffer()).rejects.toThrow();
    else expect(response.status).toBe(502);
    await kit.settle();
    expect(await kit.userQuota(user.id)).toBe(1_000_000);
    const logs = await speechLogs(user.id);
    expect(logs.filter((log) => log.type === LogType.consume)).toEqual([]);
    expect(await kit.test.context.db.selectFrom('quota_reservations').select('id').execute()).toEqual([]);
  }, 30_000);
});
