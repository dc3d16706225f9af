import type { UpstreamErrorKind } from '../../canonical/translation';

/**
 * The Coze error codes the gateway knows: 4000 bad parameters, 4100 an invalid or expired token, 4101 a
 * token without the permission, 4200 no such bot, 4015 a bot not published as an API, 4013 too many
 * requests, 5000 a server error, 700012006 an invalid access token. Any other code is read from its words.
 */
const KIND_OF_CODE: Readonly<Record<number, UpstreamErrorKind>> = {
  4000: 'invalid_request',
  4100: 'authentication',
  4101: 'permission',
  4013: 'rate_limit',
  4015: 'not_found',
  4200: 'not_found',
  5000: 'server',
  700012006: 'authentication',
};

/** Codes Coze may add are read from their words, as Coze words them in English. */
const KIND_OF_WORDS: ReadonlyArray<[RegExp, UpstreamErrorKind]> = [
  [/token.*(invalid|expired)|authenticat|unauthori[sz]ed/i, 'authentication'],
  [/permission|forbidden/i, 'permission'],
  [/balance|quota|insufficient|credits?/i, 'insufficient_quota'],
  [/rate|frequen|too many|limit/i, 'rate_limit'],
  [/not (exist|found)|publish/i, 'not_found'],
];

export function mapCozeErrorCode(code: number, message: string): UpstreamErrorKind {
  const known = KIND_OF_CODE[code];
  if (known) return known;
  return KIND_OF_WORDS.find(([words]) => words.test(message))?.[1] ?? 'unknown';
}
