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

/**
 * Random text from a cryptographic source, from an alphabet without look-alike characters. Joined once, not
 * grown by +=: V8 keeps a string grown that way as a rope of one node per character past the 13th (~640 bytes
 * for 32 characters), and a state or code held in memory kept all of it.
 */
export function randomText(length: number, alphabet = ALPHABET): string {
  const characters: string[] = [];
  // Reject bytes past the last whole multiple of the alphabet size so every character is equally likely.
  const limit = 256 - (256 % alphabet.length);
  while (characters.length < length) {
    for (const byte of randomBytes((length - characters.length) * 2)) {
      if (byte < limit) characters.push(alphabet[byte % alphabet.length]);
      if (characters.length === length) break;
    }
  }
  return characters.join('');
}

/** A system access token: 32 hex characters. */
export function createAccessToken(): string {
  return randomBytes(16).toString('hex');
}
