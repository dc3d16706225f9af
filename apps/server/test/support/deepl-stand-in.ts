import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface DeepLReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown> | null;
}

export interface DeepLStandIn {
  /** http://127.0.0.1:<port>, the channel's base URL */
  url: string;
  authKey: string;
  received: DeepLReceivedRequest[];
  /** the characters left this month; at 0 every translation is answered 456 */
  charactersLeft: number;
  close(): Promise<void>;
}

/** A few of DeepL's target languages, enough to see a wrong one refused as DeepL refuses it. */
const TARGET_LANGUAGES = new Set(['DE', 'EN-GB', 'EN-US', 'FR', 'JA', 'ZH', 'ZH-HANS']);

const DICTIONARY: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'Hello, world!': { ZH: '你好，世界！', DE: 'Hallo, Welt!', FR: 'Bonjour, le monde !' },
};

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * DeepL's POST /v2/translate on 127.0.0.1 (random port), JSON bodies as DeepL takes them: the key in
 * `Authorization: DeepL-Auth-Key …` (403 with an empty body otherwise), target_lang checked (400), the
 * character quota enforced (456 "Quota Exceeded"), billed_characters when show_billed_characters is set.
 * Texts it knows are translated from a small dictionary; others come back as `[LANG] text`.
 */
export async function startDeepLStandIn(options: { authKey?: string } = {}): Promise<DeepLStandIn> {
  const sockets = new Set<Socket>();
  const standIn: DeepLStandIn = {
    url: '',
    authKey: options.authKey ?? 'stand-in-key:fx',
    received: [],
    charactersLeft: 500_000,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        json = null;
      }
      const url = request.url ?? '';
      standIn.received.push({ method: request.method ?? '', url, headers: request.headers, json });
      if (request.headers.authorization !== `DeepL-Auth-Key ${standIn.authKey}`) {
        response.writeHead(403);
        return response.end();
      }
      if (request.method !== 'POST' || url !== '/v2/translate')
        return sendJson(response, 404, { message: 'Not found' });
      const texts = Array.isArray(json?.text) ? json.text.map(String) : null;
      if (!texts)
        return sendJson(response, 400, { message: 'Bad request', detail: 'Parameter text not specified.' });
      const target = String(json?.target_lang ?? '').toUpperCase();
      if (!TARGET_LANGUAGES.has(target))
        return sendJson(response, 400, { message: "Value for 'target_lang' not supported." });
      const billed = texts.map((text) => [...text].length);
      const total = billed.reduce((sum, count) => sum + count, 0);
      if (total > standIn.charactersLeft) return sendJson(response, 456, { message: 'Quota Exceeded' });
      standIn.charactersLeft -= total;
      const translations = texts.map((text, index) => ({
        detected_source_language: 'EN',
        text: DICTIONARY[text]?.[target] ?? `[${target}] ${text}`,
        ...(json?.show_billed_characters === true ? { billed_characters: billed[index] } : {}),
      }));
      sendJson(response, 200, { translations });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
