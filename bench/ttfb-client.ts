import { Agent, request } from 'node:http';
import type { RequestTarget } from './bench-request';

export interface TtfbResult {
  /** time to the first byte of the answer's body (the first SSE event), ms */
  ttfb: number[];
  /** time to the end of the answer, ms */
  total: number[];
  failed: number;
}

const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** One request on the shared agent; resolves false on any failure. */
function timeOne(target: RequestTarget, agent: Agent, result: TtfbResult): Promise<boolean> {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const outgoing = request(target.url, {
      method: 'POST',
      agent,
      headers: { ...target.headers, 'content-length': Buffer.byteLength(target.body) },
    });
    outgoing.on('error', () => resolve(false));
    outgoing.on('response', (response) => {
      const isOk = response.statusCode !== undefined && response.statusCode < 300;
      let firstByte = -1;
      response.on('data', () => {
        if (firstByte < 0) firstByte = elapsedMs(start);
      });
      response.on('error', () => resolve(false));
      response.on('end', () => {
        if (isOk && firstByte >= 0) {
          result.ttfb.push(firstByte);
          result.total.push(elapsedMs(start));
        }
        resolve(isOk);
      });
    });
    outgoing.end(target.body);
  });
}

/**
 * Streaming time to first byte, which autocannon does not report (it times whole answers): `connections`
 * loops over keep-alive connections, each sending its next request when the previous answer ended.
 */
export async function measureTtfb(
  target: RequestTarget,
  connections: number,
  seconds: number,
): Promise<TtfbResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const result: TtfbResult = { ttfb: [], total: [], failed: 0 };
  const deadline = Date.now() + seconds * 1000;
  const loop = async () => {
    while (Date.now() < deadline) {
      if (!(await timeOne(target, agent, result))) result.failed += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return result;
}
