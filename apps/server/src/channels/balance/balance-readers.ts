import { ChannelType } from '@gatehouse/shared';
import { z } from 'zod';

/** GETs a path below the channel's base URL with its key; throws a BalanceError for an error or non-JSON answer. */
export type FetchBalanceJson = (path: string) => Promise<unknown>;

/** Reads one vendor's balance, in the currency the vendor bills in (US dollars, or yuan for Chinese vendors). */
export type BalanceReader = (fetchJson: FetchBalanceJson, now: Date) => Promise<number>;

export class BalanceError extends Error {}

function parseAnswer<Schema extends z.ZodType>(schema: Schema, answer: unknown): z.infer<Schema> {
  const result = schema.safeParse(answer);
  if (!result.success) throw new BalanceError('The upstream balance answer could not be read');
  return result.data;
}

const decimalText = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .transform(Number);

const dateText = (date: Date) => date.toISOString().slice(0, 10);

/**
 * OpenAI's legacy billing endpoints, which OpenAI-compatible resellers still serve: the hard limit minus this
 * month's usage (the last 100 days without a payment method), usage in cents — as one-api computes it.
 */
const readOpenAIBilling: BalanceReader = async (fetchJson, now) => {
  const subscription = parseAnswer(
    z.object({ hard_limit_usd: z.number(), has_payment_method: z.boolean().optional() }),
    await fetchJson('/v1/dashboard/billing/subscription'),
  );
  const start = subscription.has_payment_method
    ? `${dateText(now).slice(0, 7)}-01`
    : dateText(new Date(now.getTime() - 100 * 86_400_000));
  const usage = parseAnswer(
    z.object({ total_usage: z.number() }),
    await fetchJson(`/v1/dashboard/billing/usage?start_date=${start}&end_date=${dateText(now)}`),
  );
  return subscription.hard_limit_usd - usage.total_usage / 100;
};

/** The credit-grants endpoint of resellers that copied OpenAI's early API (CloseAI, API2GPT, AIGC2D). */
const readCreditGrants: BalanceReader = async (fetchJson) => {
  const grants = parseAnswer(
    z.union([
      z.object({ total_available: z.number() }).transform((answer) => answer.total_available),
      z.object({ total_remaining: z.number() }).transform((answer) => answer.total_remaining),
    ]),
    await fetchJson('/dashboard/billing/credit_grants'),
  );
  return grants;
};

/** https://openrouter.ai/docs/api-reference/get-credits — bought credits minus usage, in dollars. */
const readOpenRouterCredits: BalanceReader = async (fetchJson) => {
  const { data } = parseAnswer(
    z.object({ data: z.object({ total_credits: z.number(), total_usage: z.number() }) }),
    await fetchJson('/v1/credits'),
  );
  return data.total_credits - data.total_usage;
};

/** https://api-docs.deepseek.com/api/get-user-balance — one entry per currency; yuan first, as one-api reads it. */
const readDeepSeekBalance: BalanceReader = async (fetchJson) => {
  const { balance_infos: balances } = parseAnswer(
    z.object({
      balance_infos: z.array(z.object({ currency: z.string(), total_balance: decimalText })).min(1),
    }),
    await fetchJson('/user/balance'),
  );
  const chosen = balances.find((balance) => balance.currency === 'CNY') ?? balances[0];
  return chosen.total_balance;
};

/** https://docs.siliconflow.cn/en/api-reference/userinfo/get-user-info — totalBalance as text, in yuan. */
const readSiliconFlowBalance: BalanceReader = async (fetchJson) => {
  const { data } = parseAnswer(
    z.object({ data: z.object({ totalBalance: decimalText }) }),
    await fetchJson('/v1/user/info'),
  );
  return data.totalBalance;
};

/** https://platform.moonshot.cn/docs/api/balance — available_balance in yuan. */
const readMoonshotBalance: BalanceReader = async (fetchJson) => {
  const { data } = parseAnswer(
    z.object({ data: z.object({ available_balance: z.number() }) }),
    await fetchJson('/v1/users/me/balance'),
  );
  return data.available_balance;
};

/** Channel types whose vendor documents a balance endpoint; every other type has none to ask. */
export const balanceReaders: Readonly<Partial<Record<number, BalanceReader>>> = {
  [ChannelType.openai]: readOpenAIBilling,
  [ChannelType.custom]: readOpenAIBilling,
  [ChannelType.closeai]: readCreditGrants,
  [ChannelType.api2gpt]: readCreditGrants,
  [ChannelType.aigc2d]: readCreditGrants,
  [ChannelType.openRouter]: readOpenRouterCredits,
  [ChannelType.deepseek]: readDeepSeekBalance,
  [ChannelType.siliconFlow]: readSiliconFlowBalance,
  [ChannelType.moonshot]: readMoonshotBalance,
};

export function hasBalanceApi(type: number): boolean {
  return balanceReaders[type] !== undefined;
}
