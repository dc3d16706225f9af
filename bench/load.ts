import autocannon from 'autocannon';
import type { RequestTarget } from './bench-request';

export interface LoadResult {
  /** 2xx answers completed inside the run */
  completed: number;
  /** non-2xx answers, connection errors and timeouts */
  failed: number;
  seconds: number;
  /** full-response latencies of the 2xx answers, in ms (autocannon's own percentiles are whole ms) */
  latencies: number[];
}

/** `connections` keep-alive connections, each sending the next request when the previous answer ends. */
export function runLoad(target: RequestTarget, connections: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const startedAt = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body: target.body,
        connections,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        resolve({
          completed: result['2xx'],
          failed: result.non2xx + result.errors + result.timeouts,
          seconds: Number(process.hrtime.bigint() - startedAt) / 1e9,
          latencies,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/** `rate` requests per second over 8 connections, whatever the target's speed; answers the 2xx count. */
export async function runFixedRate(target: RequestTarget, rate: number, seconds: number): Promise<number> {
  return (await runFixedRateCounted(target, rate, seconds)).completed;
}

/** runFixedRate, answering the failures too (non-2xx, errors and timeouts). */
export function runFixedRateCounted(
  target: RequestTarget,
  rate: number,
  seconds: number,
): Promise<{ completed: number; failed: number; p99Ms: number }> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        method: 'POST',
        headers: target.headers,
        body: target.body,
        connections: 8,
        overallRate: rate,
        duration: seconds,
        timeout: 10,
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              completed: result['2xx'],
              failed: result.non2xx + result.errors + result.timeouts,
              p99Ms: result.latency.p99,
            }),
    );
  });
}
