import type { AppContext } from '../context';
import { fail } from '../http/envelope';

export const SERVER_ADDRESS_MISSING =
  'The server address is not set: an administrator must set Server address (the address users reach the ' +
  'console at) in Settings → System settings first';

/**
 * The address users reach the console at, from the ServerAddress option only; mailed links and OAuth redirect
 * URIs are built on it. Never from the request's Host or forwarded headers: anyone can send those, and a reset
 * link built on them would carry the victim's token to the sender's server. While it is empty, the features
 * that need it refuse with a message telling the admin to set it.
 */
export function publicAddress(context: AppContext): string {
  const configured = context.options.get('ServerAddress').trim().replace(/\/+$/, '');
  if (configured === '') fail(SERVER_ADDRESS_MISSING);
  return configured;
}
