import { randomBytes } from 'node:crypto';

/** Object ids as OpenAI spells them: a type prefix and 48 hex digits (resp_…, msg_…, fc_…, rs_…). */
export function createResponsesId(prefix: 'resp' | 'msg' | 'fc' | 'rs'): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
