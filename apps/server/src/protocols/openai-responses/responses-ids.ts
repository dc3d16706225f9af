import { randomBytes } from 'node:crypto';

/** Object ids as OpenAI spells them: a type prefix and 48 hex digits (resp_…, msg_…, fc_…, ctc_…, tsc_…, rs_…). */
export function createResponsesId(prefix: 'resp' | 'msg' | 'fc' | 'ctc' | 'tsc' | 'rs'): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
