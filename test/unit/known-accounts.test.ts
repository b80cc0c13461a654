// The ledger accounts a group commit remembers (src/ledger/known-accounts.ts): only those that
// existed before the transaction that found them, and a bounded memory.
import { describe, expect, it } from 'vitest';
import { createKnownAccounts } from '../../src/ledger/known-accounts.js';
import type { EnsuredAccounts } from '../../src/ledger/ledger-writes.js';

function ensured(entries: Array<[string, number, boolean]>): EnsuredAccounts {
  return new Map(entries.map(([code, id, created]) => [code, { id, asset: 'USDC' as const, created }]));
}

describe('known ledger accounts', () => {
  it('gives the known accounts among those asked for, as existing accounts, and leaves the others out', () => {
    const known = createKnownAccounts();
    known.remember(
      ensured([
        ['user:1:available:USDC', 11, false],
        ['user:2:available:USDC', 12, false],
      ]),
    );
    expect(known.some(['user:1:available:USDC', 'user:3:available:USDC'])).toEqual(ensured([['user:1:available:USDC', 11, false]]));
    expect(known.some(['user:3:available:USDC']).size).toBe(0);
  });

  it('never remembers an account its transaction created: it exists only if that commit happens', () => {
    const known = createKnownAccounts();
    known.remember(ensured([['user:1:available:USDC', 11, true]]));
    expect(known.some(['user:1:available:USDC']).size).toBe(0);
  });

  it('forgets everything when cleared, and starts again empty at its bound', () => {
    const known = createKnownAccounts(2);
    known.remember(
      ensured([
        ['a', 1, false],
        ['b', 2, false],
      ]),
    );
    expect(known.some(['a', 'b']).size).toBe(2);
    known.remember(ensured([['c', 3, false]]));
    expect([...known.some(['a', 'b', 'c']).keys()]).toEqual(['c']);
    known.clear();
    expect(known.some(['c']).size).toBe(0);
  });
});
