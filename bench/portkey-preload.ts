/**
 * Preloaded into Portkey's gateway only. Portkey 1.15 with @hono/node-server newer than 1.14.2 (what npm
 * installs) fails every streamed answer with `TypeError: immutable` (Portkey-AI/gateway issue 1389): hono's
 * lightweight Response, built from a fetch Response, keeps that response's read-only headers, which Portkey
 * then adds its own to. Where hono installs its Response class, this puts a subclass that copies such headers
 * first, which is what pinning @hono/node-server 1.14.2 gives. JSON answers take the same path as before.
 */
const NativeResponse = globalThis.Response;
const define = Object.defineProperty;

function copyFetchResponse(init: unknown, Lightweight: unknown): unknown {
  if (!(init instanceof NativeResponse) || init instanceof (Lightweight as typeof Response)) return init;
  const fetched: Response = init;
  return { status: fetched.status, statusText: fetched.statusText, headers: new Headers(fetched.headers) };
}

Object.defineProperty = function defineProperty<T>(
  target: T,
  key: PropertyKey,
  descriptor: PropertyDescriptor & ThisType<unknown>,
): T {
  const value: unknown = descriptor.value;
  if (
    target === globalThis &&
    key === 'Response' &&
    typeof value === 'function' &&
    value !== NativeResponse
  ) {
    const Lightweight = value as typeof Response;
    class CopiedHeadersResponse extends Lightweight {
      constructor(body?: ConstructorParameters<typeof Response>[0], init?: ResponseInit) {
        super(body, copyFetchResponse(init, Lightweight) as ResponseInit | undefined);
      }
    }
    return define(target, key, { ...descriptor, value: CopiedHeadersResponse });
  }
  return define(target, key, descriptor);
};
