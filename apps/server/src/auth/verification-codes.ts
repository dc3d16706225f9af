import type { Redis } from 'ioredis';
import { ExpiringEntries } from '../expiring-entries';
import { randomText } from './password';

export type VerificationPurpose = 'register' | 'bind' | 'reset';

const CODE_LENGTH = 6;
const DEFAULT_TTL_MS = 10 * 60 * 1000;

/**
 * One-time codes sent by e-mail, keyed by purpose and address: the right, unexpired code is accepted
 * once; a wrong one leaves it valid.
 */
export interface VerificationCodeStore {
  readonly ttlMs: number;
  issue(purpose: VerificationPurpose, address: string): Promise<string>;
  /** True once for the right, unexpired code; a wrong code does not spend it. */
  consume(purpose: VerificationPurpose, address: string, code: string): Promise<boolean>;
  /** Withdraws an issued code, e.g. when the mail carrying it could not be sent. */
  revoke(purpose: VerificationPurpose, address: string): Promise<void>;
}

function createCode(purpose: VerificationPurpose): string {
  return purpose === 'reset' ? randomText(32) : randomText(CODE_LENGTH, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ');
}

function keyOf(purpose: VerificationPurpose, address: string): string {
  // One mailed code (GET /api/verification) proves the address both for registering and for binding.
  const kind = purpose === 'reset' ? 'reset' : 'email';
  return `${kind}:${address.trim().toLowerCase()}`;
}

/** Users type codes in any case and with stray spaces. */
function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

interface Entry {
  code: string;
  expiresAt: number;
}

/**
 * Codes held at most (~250 bytes each: 25 MB when full). Each is a mail sent, to any address a client names,
 * so their number was bounded only by how fast mail goes out, and every issue walked them all to sweep the
 * expired ones. Past this the oldest go first (those codes stop working; a new one can be asked for).
 */
export const MAX_VERIFICATION_CODES = 100_000;

/** For a single instance: the codes live in this process. */
export class MemoryVerificationCodes implements VerificationCodeStore {
  private readonly entries: ExpiringEntries<Entry>;

  constructor(
    readonly ttlMs = DEFAULT_TTL_MS,
    capacity = MAX_VERIFICATION_CODES,
  ) {
    this.entries = new ExpiringEntries(capacity);
  }

  /** codes held now */
  get size(): number {
    return this.entries.size;
  }

  async issue(purpose: VerificationPurpose, address: string): Promise<string> {
    const code = createCode(purpose);
    const now = Date.now();
    this.entries.add(keyOf(purpose, address), { code, expiresAt: now + this.ttlMs }, now);
    return code;
  }

  async consume(purpose: VerificationPurpose, address: string, code: string): Promise<boolean> {
    const key = keyOf(purpose, address);
    const entry = this.entries.find(key);
    if (!entry || normalizeCode(entry.code) !== normalizeCode(code)) return false;
    this.entries.delete(key);
    return true;
  }

  async revoke(purpose: VerificationPurpose, address: string): Promise<void> {
    this.entries.delete(keyOf(purpose, address));
  }
}

// Compare and delete in one step, so of racing requests (on any instance) exactly one spends the code,
// and a wrong guess leaves it in place. GETDEL alone would spend the code on a wrong guess.
const CONSUME_SCRIPT = `
local stored = redis.call('GET', KEYS[1])
if stored and string.upper(stored) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`;

/** For several instances: a code mailed by one is accepted by any other sharing the Redis. */
export class RedisVerificationCodes implements VerificationCodeStore {
  constructor(
    private readonly redis: Redis,
    readonly ttlMs = DEFAULT_TTL_MS,
    private readonly prefix = 'verification:',
  ) {}

  async issue(purpose: VerificationPurpose, address: string): Promise<string> {
    const code = createCode(purpose);
    await this.redis.set(this.prefix + keyOf(purpose, address), code, 'PX', this.ttlMs);
    return code;
  }

  async consume(purpose: VerificationPurpose, address: string, code: string): Promise<boolean> {
    const answer = await this.redis.eval(
      CONSUME_SCRIPT,
      1,
      this.prefix + keyOf(purpose, address),
      normalizeCode(code),
    );
    return answer === 1;
  }

  async revoke(purpose: VerificationPurpose, address: string): Promise<void> {
    await this.redis.del(this.prefix + keyOf(purpose, address));
  }
}
