import { UpstreamFormatError } from '../../canonical/translation';

/** A 2xx Gemini body parsed; a cut or non-JSON body is the upstream's fault, not the client's. */
export function parseGeminiJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    throw new UpstreamFormatError('Gemini answered something that is not JSON');
  }
}
