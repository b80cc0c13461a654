// Stripe's idempotency for POSTs: the first result an endpoint produced under a key is saved and
// replayed (same status, same body, header `Idempotent-Replayed: true`) to any retry with the same key
// and the same parameters; the same key with other parameters, or on another endpoint, is an
// `idempotency_error`. Keys belong to the secret key that used them and are forgotten after 24 hours.
import { idempotencyError, type StripeApiError } from './errors.js';
import type { Clock } from './store.js';

export interface SavedResult {
  method: string;
  path: string;
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  savedAt: number;
}

export type Lookup = { kind: 'new' } | { kind: 'replay'; saved: SavedResult } | { kind: 'refused'; error: StripeApiError };

const LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

export class IdempotencyStore {
  private readonly saved = new Map<string, SavedResult>();
  private readonly inFlight = new Set<string>();

  constructor(private readonly clock: Clock) {}

  private slot(scope: string, key: string): string {
    return `${scope}\u0000${key}`;
  }

  lookup(scope: string, key: string, method: string, path: string, fingerprint: string): Lookup {
    if (key.length > MAX_KEY_LENGTH) {
      return { kind: 'refused', error: idempotencyError(`Invalid idempotency key: it must be at most ${MAX_KEY_LENGTH} characters long.`) };
    }
    const slot = this.slot(scope, key);
    if (this.inFlight.has(slot)) {
      return {
        kind: 'refused',
        error: idempotencyError(
          `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
          409,
        ),
      };
    }
    const saved = this.saved.get(slot);
    if (saved === undefined || this.clock.now() - saved.savedAt > LIFETIME_MS) return { kind: 'new' };
    if (saved.method !== method || saved.path !== path) {
      return {
        kind: 'refused',
        error: idempotencyError(
          `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${saved.method} ${saved.path}' vs '${method} ${path}'). Try using a key other than '${key}' if you meant to execute a different request.`,
        ),
      };
    }
    if (saved.fingerprint !== fingerprint) {
      return {
        kind: 'refused',
        error: idempotencyError(
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        ),
      };
    }
    return { kind: 'replay', saved };
  }

  begin(scope: string, key: string): void {
    this.inFlight.add(this.slot(scope, key));
  }

  end(scope: string, key: string): void {
    this.inFlight.delete(this.slot(scope, key));
  }

  save(scope: string, key: string, result: Omit<SavedResult, 'savedAt'>): void {
    this.saved.set(this.slot(scope, key), { ...result, savedAt: this.clock.now() });
  }
}
