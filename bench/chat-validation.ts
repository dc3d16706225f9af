import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { checkOpenAIChatRequest } from '../apps/server/src/protocols/openai-chat/decode-openai-chat-request';

/**
 * What checking a chat body costs, on the body of a coding agent rather than the benchmark's small chat:
 * about 100 KB, 40 tools with JSON-schema parameters, a long system prompt and a conversation of tool calls
 * and file contents. Compares the hand-written check the relay uses with an equivalent zod schema (objects
 * kept loose, so unknown fields pass, as they must) and with JSON.parse of the same body, which every request
 * pays already.
 *
 *   node --import tsx bench/chat-validation.ts
 */

const code = (index: number) =>
  Array.from(
    { length: 40 },
    (_, line) =>
      `export function step${index}_${line}(input: number): number { return input * ${line} + 1; }`,
  ).join('\n');

function buildAgentBody(): string {
  const tools = Array.from({ length: 40 }, (_, index) => ({
    type: 'function',
    function: {
      name: `tool_${index}`,
      description: `Tool number ${index}: reads, edits or runs something in the workspace. `.repeat(3),
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'A path inside the workspace' },
          content: { type: 'string', description: 'The new content of the file' },
          options: {
            type: 'object',
            properties: { recursive: { type: 'boolean' }, limit: { type: 'integer', minimum: 1 } },
          },
        },
        required: ['path'],
      },
    },
  }));
  const messages: unknown[] = [
    { role: 'system', content: 'You are a coding agent working in a repository. '.repeat(200) },
    { role: 'user', content: 'Refactor the step functions and run the tests.' },
  ];
  for (let turn = 0; turn < 21; turn += 1) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `call_${turn}`,
          type: 'function',
          function: { name: `tool_${turn}`, arguments: JSON.stringify({ path: `src/step-${turn}.ts` }) },
        },
      ],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${turn}`, content: code(turn) });
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'Now summarise what changed.' }] });
  return JSON.stringify({
    model: 'gpt-4o-mini',
    messages,
    tools,
    tool_choice: 'auto',
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: 4096,
    temperature: 0.2,
    parallel_tool_calls: true,
    // Newer than any SDK's types: must pass.
    prompt_cache_key: 'agent-session-1',
  });
}

const optionalNumber = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) =>
  z.number().min(minimum).max(maximum).nullish();
const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const part = z.union([
  textPart,
  z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string() }) }),
  z.looseObject({ type: z.literal('input_audio'), input_audio: z.looseObject({ data: z.string() }) }),
  z.looseObject({ type: z.literal('file'), file: z.looseObject({}) }),
  z.looseObject({ type: z.string() }),
]);
const toolCall = z.looseObject({
  id: z.string(),
  type: z.string(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }).optional(),
});
const message = z.discriminatedUnion('role', [
  z.looseObject({ role: z.enum(['system', 'developer']), content: z.union([z.string(), z.array(textPart)]) }),
  z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(part).min(1)]) }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(part)]).nullish(),
    tool_calls: z.array(toolCall).nullish(),
  }),
  z.looseObject({
    role: z.literal('tool'),
    tool_call_id: z.string(),
    content: z.union([z.string(), z.array(part)]),
  }),
]);
const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  tools: z
    .array(
      z.looseObject({
        type: z.string(),
        function: z
          .looseObject({
            name: z.string(),
            description: z.string().nullish(),
            parameters: z.record(z.string(), z.unknown()).nullish(),
          })
          .optional(),
      }),
    )
    .nullish(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.string() })]).nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  temperature: optionalNumber(0, 2),
  top_p: optionalNumber(0, 1),
  presence_penalty: optionalNumber(-2, 2),
  frequency_penalty: optionalNumber(-2, 2),
  seed: z.number().int().nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  logit_bias: z.record(z.string(), z.number()).nullish(),
  user: z.string().nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: z.looseObject({ type: z.string() }).nullish(),
  reasoning_effort: z.string().nullish(),
});

/** Median microseconds per call over `rounds` rounds of `calls` calls. */
function measure(calls: number, rounds: number, run: () => void): number {
  for (let index = 0; index < calls; index += 1) run();
  const perCall: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const startedAt = performance.now();
    for (let index = 0; index < calls; index += 1) run();
    perCall.push(((performance.now() - startedAt) * 1000) / calls);
  }
  perCall.sort((left, right) => left - right);
  return perCall[Math.floor(rounds / 2)];
}

const text = buildAgentBody();
const body = JSON.parse(text) as Record<string, unknown>;
if (!chatRequestSchema.safeParse(body).success) throw new Error('the zod schema refuses the agent body');
checkOpenAIChatRequest(body);

const rows: Array<[string, number]> = [
  ['JSON.parse of the body (paid today)', measure(200, 15, () => JSON.parse(text))],
  ['hand-written check (the relay)', measure(2000, 15, () => checkOpenAIChatRequest(body))],
  ['zod 4 safeParse, loose objects', measure(200, 15, () => chatRequestSchema.safeParse(body))],
];
console.log(
  `body: ${(text.length / 1024).toFixed(0)} KB, ${(body.messages as unknown[]).length} messages, ` +
    `${(body.tools as unknown[]).length} tools (node ${process.version})`,
);
for (const [name, micros] of rows) console.log(`${name.padEnd(40)} ${micros.toFixed(1).padStart(8)} µs/call`);
