import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

// undici's HTTP client alone: its Agent and request(), loaded from the files undici's own index loads them from,
// and wired as that index wires them (the API methods on every dispatcher). The index also loads its fetch,
// WebSocket, caches and mocks, and through them Node's bundled copy of undici: 9 MB resident at rest that
// nothing here uses (a bare process: 60 MB with the index, 51 MB with these files, 40 MB with neither).
const api = load('undici/lib/api') as Partial<Undici.Dispatcher>;
const Dispatcher = load('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
Object.assign(Dispatcher.prototype, api);
const { getGlobalDispatcher } = load('undici/lib/global') as Pick<typeof Undici, 'getGlobalDispatcher'>;

export const Agent = load('undici/lib/dispatcher/agent') as typeof Undici.Agent;
export type Agent = Undici.Agent;

type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method?: Undici.Dispatcher.HttpMethod;
  dispatcher?: Undici.Dispatcher;
};

/** undici's `request(url, options)` (no `path` option), over the global dispatcher unless one is given. */
export function request(
  url: string | URL,
  options: RequestOptions = {},
): Promise<Undici.Dispatcher.ResponseData> {
  const target = new URL(url);
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  return dispatcher.request({
    ...rest,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: options.method ?? (options.body ? 'PUT' : 'GET'),
  });
}
