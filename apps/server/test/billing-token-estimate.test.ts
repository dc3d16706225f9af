import { describe, expect, it } from 'vitest';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { createTokenCounter, createTokenEstimator, estimateTokens } from '../src/billing/token-counter';

const english =
  'The gateway reserves the worst case before it calls the upstream: the prompt, plus max_tokens times the ' +
  "completion ratio. When the answer arrives it settles the real cost and gives back the rest. It's the " +
  'simplest way to make sure that nobody, however many requests they send at once, can spend more than they ' +
  'have. Operators see every request in the logs, with the tokens, the channel and how long it took.\n\n' +
  'Quarterly revenue rose 12.5% to $4,310,000 (up from $3.83M in Q3 2024), driven by enterprise contracts.';

const typescript = `export async function reserveQuota(db: Db, holder: QuotaHolder, amount: number): Promise<Shortfall | null> {
  if (amount <= 0) return null;
  const now = nowSeconds();
  try {
    await db.transaction().execute(async (trx) => {
      if (!isOneRow(await trx.executeQuery(takeFromUser(db, holder.userId, amount)))) {
        throw new ReservationRefused('user');
      }
    });
    return null;
  } catch (error) {
    if (error instanceof ReservationRefused) return error.shortfall;
    throw error;
  }
}
const matrix = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
for (let i = 0; i < n; i++) a[i] = b[j] * c[k] - d[l] / e[m] % 7;`;

const python = `def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

print([fib(i) for i in range(10)], {"a": 1, "b": [2, 3]})`;

const json = JSON.stringify({
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
  ids: ['3f9a0c2e-7d41-4b6e-9a35-0c8e2b1f6d77', 'a1b2c3d4e5f60718293a4b5c6d7e8f90'],
});

const chinese =
  '人工智能是计算机科学的一个分支，它企图了解智能的实质，并生产出一种新的能以人类智能相似的方式做出反应的' +
  '智能机器。该领域的研究包括机器人、语言识别、图像识别、自然语言处理和专家系统等。';

const classicalChinese =
  '天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。寒来暑往，秋收冬藏。闰余成岁，律吕调阳。云腾致雨，露结为霜。' +
  '金生丽水，玉出昆冈。剑号巨阙，珠称夜光。果珍李柰，菜重芥姜。海咸河淡，鳞潜羽翔。龙师火帝，鸟官人皇。';

const others = {
  japanese: '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。',
  russian: 'Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему.',
  emoji: '🤔🎉👩‍👩‍👧‍👦🚀🧪🦄🫠🪐 done ✅',
  numbers: Array.from({ length: 100 }, (_, index) => String((index * 7919) % 100003)).join(','),
  indentation: `x${' '.repeat(300)}y\n\n\n\t\t\tz`,
};

const exact = (text: string) => Math.max(countCl100k(text), countO200k(text));

describe('estimateTokens (reservations without the tokenizer)', () => {
  it.each([
    ['English prose', english],
    ['TypeScript', typescript],
    ['Python', python],
    ['JSON with ids', json],
    ['Chinese', chinese],
    ['classical Chinese', classicalChinese],
    ...Object.entries(others),
  ])('never counts %s below cl100k or o200k', (_name, text) => {
    expect(estimateTokens(text)).toBeGreaterThanOrEqual(exact(text));
  });

  it('stays within 2 × on English and code', () => {
    for (const text of [english, typescript, python]) {
      expect(estimateTokens(text)).toBeLessThanOrEqual(2 * exact(text));
    }
    // the usual short chat turn
    expect(estimateTokens('What is the capital of France?')).toBeLessThanOrEqual(
      2 * exact('What is the capital of France?'),
    );
  });

  it('reserves at least the exact chat prompt, with message overheads, tools and images', async () => {
    const body = {
      messages: [
        { role: 'system', content: 'You are a careful assistant. Answer in the language of the question.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: chinese },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run', arguments: typescript } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: json },
      ],
      tools: [
        { type: 'function', function: { name: 'run', description: english, parameters: { type: 'object' } } },
      ],
    };
    for (const model of ['gpt-4o', 'gpt-3.5-turbo']) {
      const exactCount = await createTokenCounter(model, false).chatPrompt(body);
      const estimate = createTokenEstimator(model).chatPrompt(body);
      expect(estimate).toBeGreaterThanOrEqual(exactCount);
      expect(estimate).toBeLessThanOrEqual(2 * exactCount);
    }
  });

  it('counts nothing for empty text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(createTokenEstimator('gpt-4o').text('')).toBe(0);
  });
});
