import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';

const COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Random text from a cryptographic source, from an alphabet without look-alike characters. */
export function randomText(length: number, alphabet = ALPHABET): string {
  const bytes = randomBytes(length * 2);
  let text = '';
  // Reject bytes past the last whole multiple of the alphabet size so every character is equally likely.
  const limit = 256 - (256 % alphabet.length);
  for (const byte of bytes) {
    if (byte < limit) text += alphabet[byte % alphabet.length];
    if (text.length === length) return text;
  }
  return text + randomText(length - text.length, alphabet);
}

/** A system access token: 32 hex characters. */
export function createAccessToken(): string {
  return randomBytes(16).toString('hex');
}
