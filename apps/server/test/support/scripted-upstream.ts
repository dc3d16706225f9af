import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedUpstream {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 whose every answer the test writes by hand (`answer`, called once the
 * request's body is in), for the relay's upstream readers: chunks, pauses, cut bodies. `onClosedEarly` hears
 * of an answer whose connection closed before it ended (the reader cancelled it).
 */
export async function startScriptedUpstream(
  answer: (response: ServerResponse) => void,
  onClosedEarly: () => void,
): Promise<ScriptedUpstream> {
  const server = createServer((request, response) => {
    request.resume();
    response.once('close', () => {
      if (!response.writableFinished) onClosedEarly();
    });
    request.once('end', () => answer(response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
