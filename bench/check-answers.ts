import { buildRequestTarget } from './bench-request';
import type { Target } from './measure';

/**
 * Before measuring, one JSON and one streamed request to each target must answer what a client expects:
 * otherwise the benchmark would time error pages.
 */
export async function checkAnswers(
  target: Pick<Target, 'name' | 'baseUrl' | 'apiKey' | 'headers'>,
): Promise<void> {
  const json = buildRequestTarget(target.baseUrl, target.apiKey, 'json', target.headers);
  const jsonResponse = await fetch(json.url, { method: 'POST', headers: json.headers, body: json.body });
  const jsonText = await jsonResponse.text();
  const answer = JSON.parse(jsonText) as { choices?: Array<{ message?: { content?: string } }> };
  if (jsonResponse.status !== 200 || !answer.choices?.[0]?.message?.content) {
    throw new Error(`${target.name}: JSON answer ${jsonResponse.status} ${jsonText.slice(0, 300)}`);
  }
  const stream = buildRequestTarget(target.baseUrl, target.apiKey, 'stream', target.headers);
  const streamResponse = await fetch(stream.url, {
    method: 'POST',
    headers: stream.headers,
    body: stream.body,
  });
  const events = await streamResponse.text();
  const isComplete = events.includes('"content":"Hello"') && events.trimEnd().endsWith('data: [DONE]');
  if (streamResponse.status !== 200 || !isComplete) {
    throw new Error(`${target.name}: stream answer ${streamResponse.status} ${events.slice(0, 300)}`);
  }
  // The client did not ask for stream usage: the chunk the gateway asked for on its behalf must not show.
  if (events.includes('"usage"'))
    throw new Error(`${target.name}: the stream carries a usage chunk nobody asked for`);
}
