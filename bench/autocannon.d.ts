// The subset of autocannon 8 the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface AutocannonOptions {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    /** requests per second over all connections */
    overallRate?: number;
    pipelining?: number;
    duration?: number;
    timeout?: number;
  }

  interface AutocannonResult {
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    duration: number;
    requests: { total: number; average: number; sent: number };
    /** response times in ms (autocannon's histogram summary) */
    latency: { p50: number; p99: number; max: number };
  }

  interface AutocannonInstance extends EventEmitter {
    stop(): void;
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
    on(event: 'done', listener: (result: AutocannonResult) => void): this;
  }

  function autocannon(
    options: AutocannonOptions,
    callback: (error: Error | null, result: AutocannonResult) => void,
  ): AutocannonInstance;

  export default autocannon;
  export type { AutocannonOptions, AutocannonResult, AutocannonInstance };
}
