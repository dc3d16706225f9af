import { buildRequestTarget } from './bench-request';
import { PROXY_CPU, startMock } from './bench-processes';
import { checkBilling } from './billing-check';
import { checkAnswers } from './check-answers';
import { CHURN_KINDS, runChurn, type ChurnCounts } from './churn-client';
import { findFreePort } from './free-port';
import { startGateway } from './gateway-process';
import { connectInspector, type InspectorClient } from './inspector-client';
import { runLoad } from './load';

export interface SoakOptions {
  rounds: number;
  seconds: number;
}

/** Connections of each part of a round's load: chat JSON, chat streams, and the churn's loops. */
const CHAT_CONNECTIONS = 16;
const CHURN_WORKERS = 16;
const MB = 1024 * 1024;

interface Sample {
  round: number;
  requests: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
  rssMb: number;
  /** the server's active handles and requests by type (sockets, timers, …) */
  resources: Record<string, number>;
}

interface ServerMemory {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  resources: string[];
}

/** After a full collection: what the server still holds, asked of the server itself. */
async function sample(inspector: InspectorClient, round: number, requests: number): Promise<Sample> {
  await inspector.collectGarbage();
  const memory = await inspector.evaluate<ServerMemory>(
    '({ ...process.memoryUsage(), resources: process.getActiveResourcesInfo() })',
  );
  const resources: Record<string, number> = {};
  for (const type of memory.resources) resources[type] = (resources[type] ?? 0) + 1;
  return {
    round,
    requests,
    heapUsedMb: memory.heapUsed / MB,
    externalMb: memory.external / MB,
    arrayBuffersMb: memory.arrayBuffers / MB,
    rssMb: memory.rss / MB,
    resources,
  };
}

function formatChurn(counts: ChurnCounts): string {
  const lines = CHURN_KINDS.map((kind) => {
    const { sent, unexpected } = counts.byKind.get(kind.name)!;
    const odd = [...unexpected].map(([outcome, count]) => `${count}× ${outcome}`).join(', ');
    return `| ${kind.name} | ${kind.expected.join(', ')} | ${sent} | ${odd || '—'} |`;
  });
  return ['| churn request | expected | sent | other outcomes |', '| --- | --- | --- | --- |', ...lines].join(
    '\n',
  );
}

function formatSamples(samples: Sample[]): string {
  const rows = samples.map((s) => {
    const resources = Object.entries(s.resources)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, count]) => `${type} ${count}`)
      .join(', ');
    return (
      `| ${s.round === 0 ? 'after start' : s.round} | ${s.requests} | ${s.heapUsedMb.toFixed(1)} | ` +
      `${s.externalMb.toFixed(1)} | ${s.arrayBuffersMb.toFixed(1)} | ${s.rssMb.toFixed(0)} | ${resources} |`
    );
  });
  return [
    '| round | requests so far | heap used MB | external MB | array buffers MB | RSS MB | active resources |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/**
 * Growth of live memory per 100,000 requests, from the end of round 2 (V8's code, the caches and the
 * tokenizer's tables settled by then) to the last round. A leak shows as a steady slope; a bounded cache as a
 * step that stops.
 */
function formatVerdict(samples: Sample[]): string {
  const from = samples.find((s) => s.round === 2) ?? samples[1];
  const to = samples.at(-1)!;
  const perHundredThousand = (mb: number) =>
    ((mb * 100_000) / Math.max(1, to.requests - from.requests)).toFixed(2);
  return (
    `Live heap from round ${from.round} to ${to.round} (${to.requests - from.requests} requests): ` +
    `${from.heapUsedMb.toFixed(1)} → ${to.heapUsedMb.toFixed(1)} MB, ` +
    `${perHundredThousand(to.heapUsedMb - from.heapUsedMb)} MB per 100,000 requests; ` +
    `external + array buffers ${(from.externalMb + from.arrayBuffersMb).toFixed(1)} → ` +
    `${(to.externalMb + to.arrayBuffersMb).toFixed(1)} MB; RSS ${from.rssMb.toFixed(0)} → ${to.rssMb.toFixed(0)} MB.`
  );
}

/**
 * `--soak`: one gateway under a mixed load for `rounds` rounds of `seconds` each — chat JSON and streams at
 * 16 connections each, and the churn (churn-client.ts) on 16 loops — with, after each round, two full
 * garbage collections and the server's live memory read through its inspector. Answers the report.
 */
export async function runSoak(options: SoakOptions): Promise<string> {
  const mock = await startMock();
  const inspectorPort = await findFreePort();
  const gateway = await startGateway({
    upstreamUrl: mock.url,
    cpu: PROXY_CPU,
    nodeFlags: [`--inspect=127.0.0.1:${inspectorPort}`],
  });
  const inspector = await connectInspector(inspectorPort);
  try {
    await checkAnswers({ name: 'gatehouse', baseUrl: gateway.url, apiKey: gateway.apiKey });
    const samples = [await sample(inspector, 0, 0)];
    const churnTotals: ChurnCounts = { byKind: new Map() };
    let requests = 0;
    for (let round = 1; round <= options.rounds; round += 1) {
      const [json, stream, churn] = await Promise.all([
        runLoad(buildRequestTarget(gateway.url, gateway.apiKey, 'json'), CHAT_CONNECTIONS, options.seconds),
        runLoad(buildRequestTarget(gateway.url, gateway.apiKey, 'stream'), CHAT_CONNECTIONS, options.seconds),
        runChurn(gateway.url, gateway.apiKey, CHURN_WORKERS, options.seconds),
      ]);
      let churnSent = 0;
      for (const [name, counts] of churn.byKind) {
        churnSent += counts.sent;
        const total = churnTotals.byKind.get(name) ?? { sent: 0, unexpected: new Map<string, number>() };
        total.sent += counts.sent;
        for (const [outcome, count] of counts.unexpected) {
          total.unexpected.set(outcome, (total.unexpected.get(outcome) ?? 0) + count);
        }
        churnTotals.byKind.set(name, total);
      }
      requests += json.completed + json.failed + stream.completed + stream.failed + churnSent;
      // Streams cut at the end of the round settle, batches flush.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const taken = await sample(inspector, round, requests);
      samples.push(taken);
      console.log(
        `round ${round}: ${requests} requests so far, heap ${taken.heapUsedMb.toFixed(1)} MB, ` +
          `RSS ${taken.rssMb.toFixed(0)} MB (chat failed: ${json.failed + stream.failed})`,
      );
    }
    const billing = await checkBilling(gateway);
    const billingLine =
      `Billing after the soak: used quota ${billing.usedQuota}, consumption logs sum to ${billing.loggedQuota}` +
      `${billing.usedQuota === billing.loggedQuota ? ' (equal)' : ' (**differ**)'}, ${billing.serverErrors} ` +
      `error lines in the server log.`;
    return [
      `${options.rounds} rounds of ${options.seconds} s: chat JSON and chat streams at ${CHAT_CONNECTIONS} ` +
        `connections each, and ${CHURN_WORKERS} loops of the churn; after each round two full collections ` +
        `(the server's inspector), then its own \`process.memoryUsage()\`.`,
      formatSamples(samples),
      formatVerdict(samples),
      billingLine,
      formatChurn(churnTotals),
    ].join('\n\n');
  } finally {
    inspector.close();
    await gateway.stop();
    await mock.child.stop();
  }
}
