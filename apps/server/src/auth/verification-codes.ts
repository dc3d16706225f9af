import { randomText } from './password';

export type VerificationPurpose = 'register' | 'bind' | 'reset';

const CODE_LENGTH = 6;
const DEFAULT_TTL_MS = 10 * 60 * 1000;

interface Entry {
  code: string;
  expiresAt: number;
}

/**
 * One-time codes sent by e-mail, keyed by purpose and address. In-process; a shared store (Redis) can
 * replace it behind the same two calls when several instances run.
 */
export class VerificationCodes {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly ttlMs = DEFAULT_TTL_MS) {}

  issue(purpose: VerificationPurpose, address: string): string {
    const code =
      purpose === 'reset' ? randomText(32) : randomText(CODE_LENGTH, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ');
    this.entries.set(this.keyOf(purpose, address), { code, expiresAt: Date.now() + this.ttlMs });
    this.sweep();
    return code;
  }

  /** True once for the right, unexpired code; the code is spent either way it matches. */
  consume(purpose: VerificationPurpose, address: string, code: string): boolean {
    const key = this.keyOf(purpose, address);
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt < Date.now()) {
      this.entries.delete(key);
      return false;
    }
    if (entry.code.toUpperCase() !== code.trim().toUpperCase()) return false;
    this.entries.delete(key);
    return true;
  }

  /** Withdraws an issued code, e.g. when the mail carrying it could not be sent. */
  revoke(purpose: VerificationPurpose, address: string): void {
    this.entries.delete(this.keyOf(purpose, address));
  }

  private keyOf(purpose: VerificationPurpose, address: string): string {
    // One mailed code (GET /api/verification) proves the address both for registering and for binding.
    const kind = purpose === 'reset' ? 'reset' : 'email';
    return `${kind}:${address.trim().toLowerCase()}`;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt < now) this.entries.delete(key);
  }
}
