import { startStandInServer, type StandInServer } from './stand-in-server';

/** An OpenAI chat stand-in that counts the requests it holds at once, for parallel-request limits. */
export interface CountingUpstream {
  server: StandInServer;
  url: string;
  /** the most requests it ever held at the same time */
  maxInFlight(): number;
  /** requests it answered */
  served(): number;
  /** how long each answer takes from now on */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startCountingUpstream(delayMs = 0): Promise<CountingUpstream> {
  let inFlight = 0;
  let maxInFlight = 0;
  let served = 0;
  let delay = delayMs;
  const server = await startStandInServer(async (request) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const body = JSON.parse(request.body || '{}') as { model?: string };
      served += 1;
      return {
        json: {
          id: 'chatcmpl-counting',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model ?? 'gpt-4o',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        },
      };
    } finally {
      inFlight -= 1;
    }
  });
  return {
    server,
    url: server.url,
    maxInFlight: () => maxInFlight,
    served: () => served,
    setDelay: (ms) => {
      delay = ms;
    },
    close: () => server.close(),
  };
}
