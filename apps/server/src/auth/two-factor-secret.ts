import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config/config';

/**
 * The TOTP secret must be readable by the server (it computes the expected code), so it cannot be hashed.
 * With SESSION_SECRET configured it is sealed with AES-256-GCM under a key derived from it, and a copy of the
 * database alone does not reveal it. Without one (a random secret per start), there is no lasting key: the
 * secret is stored as is, marked `plain:`. A secret sealed under another SESSION_SECRET cannot be opened;
 * its owner signs in with a recovery code, or root resets their two-factor sign-in.
 */
const SEALED = 'aes1:';
const PLAIN = 'plain:';

function deriveKey(config: Config): Buffer {
  return Buffer.from(
    hkdfSync('sha256', config.sessionSecret, 'gatehouse', 'two-factor secret encryption', 32),
  );
}

export function sealTwoFactorSecret(config: Config, secret: string): string {
  if (config.isSessionSecretGenerated) return PLAIN + secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(config), iv);
  const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED + [iv, cipher.getAuthTag(), encrypted].map((part) => part.toString('base64url')).join('.');
}

/** The secret, or null when it was sealed under another key (or the stored text is damaged). */
export function openTwoFactorSecret(config: Config, stored: string): string | null {
  if (stored.startsWith(PLAIN)) return stored.slice(PLAIN.length);
  if (!stored.startsWith(SEALED) || config.isSessionSecretGenerated) return null;
  const [iv, tag, encrypted] = stored
    .slice(SEALED.length)
    .split('.')
    .map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !encrypted) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', deriveKey(config), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
