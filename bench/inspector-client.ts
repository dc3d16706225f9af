import { WebSocket } from 'undici';

/**
 * A connection to a child's V8 inspector (`node --inspect=127.0.0.1:<port>`), over the Chrome DevTools
 * Protocol: the soak asks the running server for a full garbage collection and then for its own memory
 * figures, so a leak shows as live memory that stays, not as garbage V8 has not collected yet.
 */
export interface InspectorClient {
  /** two full collections (the second frees what the first's finalizers let go) */
  collectGarbage(): Promise<void>;
  /** evaluates `expression` in the main context and answers its value (JSON-serialisable) */
  evaluate<T>(expression: string): Promise<T>;
  close(): void;
}

interface Reply {
  id: number;
  result?: { result?: { value?: unknown }; exceptionDetails?: { text?: string } };
  error?: { message: string };
}

async function findDebuggerUrl(port: number, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/json/list`);
      const targets = (await response.json()) as Array<{ webSocketDebuggerUrl?: string }>;
      const url = targets[0]?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no inspector on port ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function connectInspector(port: number): Promise<InspectorClient> {
  const socket = new WebSocket(await findDebuggerUrl(port, 30_000));
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('the inspector refused the connection')), {
      once: true,
    });
  });
  let lastId = 0;
  const waiting = new Map<number, (reply: Reply) => void>();
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  const send = (method: string, params: object = {}): Promise<Reply> => {
    lastId += 1;
    const id = lastId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method}: no reply within 60 s`)), 60_000);
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  };
  return {
    async collectGarbage() {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
    },
    async evaluate<T>(expression: string): Promise<T> {
      const reply = await send('Runtime.evaluate', { expression, returnByValue: true });
      const failure = reply.result?.exceptionDetails;
      if (failure) throw new Error(`evaluating ${expression}: ${failure.text ?? 'threw'}`);
      return reply.result?.result?.value as T;
    },
    close() {
      socket.close();
    },
  };
}
