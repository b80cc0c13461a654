// The two-step confirmation of DESIGN §12 for clients without elicitation: a first call returns
// the terms and a confirmationId, bound to the account and the exact terms, single use, valid five
// minutes; only a second call with the same terms and that id moves money. The store is an
// interface: the service keeps confirmations in its database (they hold across processes), the
// stdio server (`peerpay mcp`) in its own memory.
import { createHash, randomBytes } from 'node:crypto';

export const CONFIRMATION_TTL_MS = 5 * 60_000;

export type ClaimResult = 'claimed' | 'not_found' | 'expired' | 'used' | 'terms_changed';

export interface ConfirmationStore {
  /** Records a confirmation for `owner` (the account) and the terms' hash; answers its id and expiry. */
  create(input: { owner: string; termsHash: string }): Promise<{ id: string; expiresAt: Date }>;
  /**
   * Marks it used, atomically, when it exists for this owner, is unused and unexpired, and was made
   * for these terms; otherwise says why not (an id of another owner is `not_found`).
   */
  claim(input: { id: string; owner: string; termsHash: string }): Promise<ClaimResult>;
  /** Makes a claimed confirmation usable again (the call's outcome is unknown; the retry replays it). */
  release(input: { id: string; owner: string }): Promise<void>;
}

/** A new confirmationId: 128 random bits. */
export function newConfirmationId(): string {
  return `conf_${randomBytes(16).toString('base64url')}`;
}

/** What is stored instead of the id itself. */
export function hashConfirmationId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** The hash of terms: canonical JSON (sorted keys) of a flat object of strings and nulls. */
export function hashTerms(terms: Record<string, string | null>): string {
  const canonical = JSON.stringify(
    Object.keys(terms)
      .sort()
      .map((key) => [key, terms[key]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** The Idempotency-Key of the call a confirmation allows: the same for every retry of it. */
export function idempotencyKeyOf(confirmationId: string): string {
  return `mcp-confirmation-${hashConfirmationId(confirmationId).slice(0, 40)}`;
}

interface Entry {
  owner: string;
  termsHash: string;
  expiresAtMs: number;
  used: boolean;
}

/** In memory, for one process (the stdio server); at most `limit` live entries. */
export class MemoryConfirmationStore implements ConfirmationStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { now?: () => number; limit?: number } = {}) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  async create(input: { owner: string; termsHash: string }): Promise<{ id: string; expiresAt: Date }> {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAtMs <= now) this.entries.delete(key);
    const limit = this.options.limit ?? 1000;
    while (this.entries.size >= limit) this.entries.delete(this.entries.keys().next().value!);
    const id = newConfirmationId();
    const expiresAtMs = now + CONFIRMATION_TTL_MS;
    this.entries.set(hashConfirmationId(id), { owner: input.owner, termsHash: input.termsHash, expiresAtMs, used: false });
    return { id, expiresAt: new Date(expiresAtMs) };
  }

  async claim(input: { id: string; owner: string; termsHash: string }): Promise<ClaimResult> {
    const entry = this.entries.get(hashConfirmationId(input.id));
    if (!entry || entry.owner !== input.owner) return 'not_found';
    if (entry.used) return 'used';
    if (entry.expiresAtMs <= this.now()) return 'expired';
    if (entry.termsHash !== input.termsHash) return 'terms_changed';
    entry.used = true;
    return 'claimed';
  }

  async release(input: { id: string; owner: string }): Promise<void> {
    const entry = this.entries.get(hashConfirmationId(input.id));
    if (entry && entry.owner === input.owner) entry.used = false;
  }
}
