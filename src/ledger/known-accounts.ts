// The ledger accounts a process has seen committed, by code: their id and asset. A committed
// ledger account is never deleted (only a transaction that created an account and then did not use
// it removes it, before its commit) and its id and asset never change, so what is remembered here
// stays true in every process on the database. A group commit locks the accounts of its batch
// found here by id at once, and asks the database to create (or find) only the others: once the
// accounts in use are known, one statement fewer per batch.
import type { Asset } from '../money/assets.js';
import type { EnsuredAccounts } from './ledger-writes.js';

/** Accounts remembered at most; beyond, the memory starts again empty (every loop and map has a bound). */
export const MAX_KNOWN_ACCOUNTS = 100_000;

export interface KnownAccounts {
  /** The accounts of `codes` that are known (those that are not are left out), as existing accounts. */
  some(codes: readonly string[]): EnsuredAccounts;
  /**
   * Remembers the accounts that existed before the transaction that found them (created: false).
   * Only from the first statement of a transaction: a later one would take an account an earlier
   * statement of the same transaction created, and that may still be rolled back, for an existing one.
   */
  remember(accounts: EnsuredAccounts): void;
  /** Forgets everything: after any failure, so that a wrong memory (none is expected) cannot fail batches for ever. */
  clear(): void;
}

export function createKnownAccounts(limit = MAX_KNOWN_ACCOUNTS): KnownAccounts {
  const known = new Map<string, { id: number; asset: Asset }>();
  return {
    some(codes) {
      const found = new Map<string, { id: number; asset: Asset; created: boolean }>();
      for (const code of codes) {
        const account = known.get(code);
        if (account) found.set(code, { ...account, created: false });
      }
      return found;
    },
    remember(accounts) {
      for (const [code, account] of accounts) {
        if (account.created) continue; // not committed yet: the transaction could still roll back
        if (known.size >= limit && !known.has(code)) known.clear();
        known.set(code, { id: account.id, asset: account.asset });
      }
    },
    clear() {
      known.clear();
    },
  };
}
