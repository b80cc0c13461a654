// A user's fiat money in one currency as the take-back rule sees it: held, available and owed
// (DESIGN §16), read under the user's lock. Every movement that takes money back or repays a debt
// first locks the user's `accounts` row, so that two of them never split one balance twice; the
// lock comes before any ledger lock (the ledger's own order follows), and no path takes it after.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import { receivableOf, specOf, userAvailable, userHeld } from '../../ledger/ledger-accounts.js';
import { FIAT_CURRENCIES, type FiatCurrency } from '../../money/assets.js';

export interface UserMoney {
  heldMinor: bigint;
  /** Spendable: posted less what payouts under way reserve. */
  availableMinor: bigint;
  owedMinor: bigint;
}

/**
 * Locks the user for a take-back, a repayment or a release (see the top of this file). FOR NO KEY
 * UPDATE, as the sender's lock is: it excludes every other take-back, repayment and send of this
 * user, but not the key-share lock that a transfer row referencing the user takes. With FOR UPDATE,
 * each credit waited on every transfer being recorded to or from its recipient, and people paying
 * each other in both directions at once stalled on PostgreSQL (test/api/fiat-concurrency.test.ts).
 */
export async function lockUser(trx: Trx, accountId: number): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().executeTakeFirstOrThrow();
}

/** The user's held, available and owed money in `currency` (zero for accounts never made). */
export async function userMoney(db: Db | Trx, accountId: number, currency: FiatCurrency): Promise<UserMoney> {
  const codes = [userHeld(accountId, currency), userAvailable(accountId, currency), receivableOf(accountId, currency)].map(
    (key) => specOf(key).code,
  );
  const rows = await db.selectFrom('ledger_accounts').select(['code', 'balance', 'pending_debits']).where('code', 'in', codes).execute();
  const of = (code: string) => rows.find((r) => r.code === code);
  const held = of(codes[0]!);
  const available = of(codes[1]!);
  const receivable = of(codes[2]!);
  return {
    heldMinor: held ? held.balance - held.pending_debits : 0n,
    availableMinor: available ? available.balance - available.pending_debits : 0n,
    owedMinor: receivable && receivable.balance < 0n ? -receivable.balance : 0n,
  };
}

export interface HeldAndOwed {
  currency: FiatCurrency;
  heldMinor: bigint;
  owedMinor: bigint;
}

/** Every currency in which the user has held or owed money (one statement). */
export async function heldAndOwedOf(db: Db, accountId: number): Promise<HeldAndOwed[]> {
  const receivables = FIAT_CURRENCIES.map((currency) => specOf(receivableOf(accountId, currency)).code);
  const rows = await sql<{ kind: string; asset: string; balance: string }>`
    select kind, asset, (balance - pending_debits)::text as balance from ledger_accounts
     where (owner_account_id = ${accountId} and kind = 'held') or code in (${sql.join(receivables)})`.execute(db);
  const out = new Map<string, HeldAndOwed>();
  for (const row of rows.rows) {
    const entry = out.get(row.asset) ?? { currency: row.asset as FiatCurrency, heldMinor: 0n, owedMinor: 0n };
    if (row.kind === 'held') entry.heldMinor = BigInt(row.balance);
    else if (BigInt(row.balance) < 0n) entry.owedMinor = -BigInt(row.balance);
    out.set(row.asset, entry);
  }
  return [...out.values()];
}
