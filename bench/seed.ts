// Seeds N users quickly, writing what registration, a completed sandbox card setup and a deposit
// would write: accounts and api_keys rows (keys from the real issuing/hashing functions, one
// precomputed password hash), the sandbox processor's customer and card, and a funded USDC balance
// (chain custody → user available, as a confirmed deposit credits it), 32 users per ledger operation.
import { issueApiKey } from '../src/accounts/api-keys.js';
import { applyOperation, MAX_TRANSFERS_PER_OPERATION } from '../src/ledger/ledger.js';
import { platformAccount, userAvailable } from '../src/ledger/ledger-accounts.js';
import { newHandle, newId } from '../src/platform/ids.js';
import type { Deps } from '../src/deps.js';

export interface SeededUser {
  id: number;
  key: string;
  handle: string;
}

/** 1,000 USDC per user, in minor units. */
export const FUNDING_MINOR = 1_000_000_000n;

export async function seedUsers(deps: Deps, count: number): Promise<SeededUser[]> {
  const passwordHash = await deps.passwords.hash('bench password, never used to sign in');
  const users: SeededUser[] = [];
  const batch = 500;
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    const rows = Array.from({ length: size }, (_, i) => ({
      handle: newHandle(),
      email: `bench${start + i}@example.com`,
      name: `Bench User ${start + i}`,
      password_hash: passwordHash,
    }));
    const inserted = await deps.db.insertInto('accounts').values(rows).returning(['id', 'handle']).execute();
    const keys = inserted.map(() => issueApiKey());
    await deps.db
      .insertInto('api_keys')
      .values(inserted.map((row, i) => ({ account_id: row.id, key_hash: keys[i]!.hash, last4: keys[i]!.last4 })))
      .execute();
    const customers = await Promise.all(
      inserted.map(async (row, i) => ({
        id: row.id,
        customerRef: (
          await deps.processor.createCustomer({ accountId: row.id, email: rows[i]!.email, idempotencyKey: `customer:${row.id}` })
        ).customerRef,
        cardRef: newId('card_sbx'),
      })),
    );
    await deps.db
      .insertInto('sandbox_instruments')
      .values(
        customers.map((c) => ({
          ref: c.cardRef,
          customer_ref: c.customerRef,
          kind: 'card' as const,
          behaviour: 'succeed' as const,
          created_at: deps.clock.now(),
        })),
      )
      .execute();
    await deps.db
      .insertInto('processor_customers')
      .values(customers.map((c) => ({ account_id: c.id, customer_ref: c.customerRef, card_ref: c.cardRef })))
      .execute();
    inserted.forEach((row, i) => users.push({ id: row.id, key: keys[i]!.key, handle: row.handle }));
  }
  for (let start = 0; start < users.length; start += MAX_TRANSFERS_PER_OPERATION) {
    const chunk = users.slice(start, start + MAX_TRANSFERS_PER_OPERATION);
    const funding = {
      operationId: newId('bench-fund'),
      transfers: chunk.map((u) => ({
        type: 'posted' as const,
        debit: platformAccount('chain_custody', 'USDC'),
        credit: userAvailable(u.id, 'USDC'),
        amountMinor: FUNDING_MINOR,
        code: 'bench_fund',
      })),
    };
    await deps.db.transaction().execute((trx) => applyOperation(trx, funding));
  }
  return users;
}
