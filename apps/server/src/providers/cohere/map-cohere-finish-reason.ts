import type { FinishReason } from '../../canonical/chat';
import { CohereReportedError } from './cohere-reported-error';
import type { CohereFinishReason } from './cohere-wire-types';

/**
 * Cohere's finish reasons (https://docs.cohere.com/reference/chat#response.body.finish_reason) as OpenAI's.
 * ERROR and TIMEOUT are failures, not endings: they throw CohereReportedError. An unknown reason reads as stop.
 */
export function mapCohereFinishReason(reason: CohereFinishReason | undefined, error?: string): FinishReason {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    case 'ERROR':
    case 'TIMEOUT':
      throw new CohereReportedError({
        message: error || (reason === 'ERROR' ? 'the generation failed' : 'the generation timed out'),
        type: reason,
        code: reason,
        kind: 'server',
      });
    default:
      return 'stop';
  }
}
