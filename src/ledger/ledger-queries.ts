// Reads of the ledger: balances for the API, and the invariants that tests and benchmarks check.
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Asset } from '../money/assets.js';

export interface OwnerBalance {
  asset: Asset;
  /** Spendable: posted balance less pending debits. */
  availableMinor: bigint;
  /** Incoming money not yet settled. */
  pendingMinor: bigint;
}

export async function balancesOfOwner(db: Db, ownerAccountId: number): Promise<OwnerBalance[]> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['asset', 'balance', 'pending_debits', 'pending_credits'])
    .where('owner_account_id', '=', ownerAccountId)
    .where('kind', '=', 'available')
    .orderBy('asset')
    .execute();
  return rows.map((r) => ({ asset: r.asset as Asset, availableMinor: r.balance - r.pending_debits, pendingMinor: r.pending_credits }));
}

export interface InvariantViolation {
  invariant: string;
  detail: string;
}

/**
 * Checks the ledger's invariants over the whole database:
 * - per asset, posted balances sum to zero and pending debits equal pending credits;
 * - no account that may not go negative is below zero;
 * - every account's stored balance and pending amounts equal what its transfers add up to;
 * - every event, stablecoin transfer and limit row names an account that exists (their foreign
 *   keys were dropped for the rule that accounts are never deleted: migration 0034).
 */
export async function checkLedgerInvariants(db: Db): Promise<InvariantViolation[]> {
  const violations: InvariantViolation[] = [];
  const sums = await sql<{ asset: string; balance: string; pending_debits: string; pending_credits: string }>`
    select asset, sum(balance)::text as balance, sum(pending_debits)::text as pending_debits,
           sum(pending_credits)::text as pending_credits
      from ledger_accounts group by asset`.execute(db);
  for (const row of sums.rows) {
    if (BigInt(row.balance) !== 0n) violations.push({ invariant: 'sum_zero', detail: `${row.asset} balances sum to ${row.balance}` });
    if (row.pending_debits !== row.pending_credits) {
      violations.push({
        invariant: 'pending_balanced',
        detail: `${row.asset} pending debits ${row.pending_debits} != credits ${row.pending_credits}`,
      });
    }
  }
  const negatives = await sql<{ code: string }>`
    select code from ledger_accounts where not allow_negative and balance - pending_debits < 0`.execute(db);
  for (const row of negatives.rows) violations.push({ invariant: 'no_overdraft', detail: `${row.code} below zero` });
  const drift = await sql<{ code: string }>`
    with effects as (
      select debit_account_id as account_id,
             case when kind in ('posted', 'post_pending') then -amount else 0 end as balance,
             case kind when 'pending' then amount when 'post_pending' then -amount when 'void_pending' then -amount else 0 end as pending_debits,
             0::bigint as pending_credits
        from ledger_transfers
      union all
      select credit_account_id,
             case when kind in ('posted', 'post_pending') then amount else 0 end,
             0::bigint,
             case kind when 'pending' then amount when 'post_pending' then -amount when 'void_pending' then -amount else 0 end
        from ledger_transfers
    ), totals as (
      select account_id, sum(balance) as balance, sum(pending_debits) as pending_debits, sum(pending_credits) as pending_credits
        from effects group by account_id
    )
    select a.code from ledger_accounts a left join totals t on t.account_id = a.id
     where a.balance <> coalesce(t.balance, 0) or a.pending_debits <> coalesce(t.pending_debits, 0)
        or a.pending_credits <> coalesce(t.pending_credits, 0)`.execute(db);
  for (const row of drift.rows)
    violations.push({ invariant: 'balance_matches_transfers', detail: `${row.code} differs from its transfers` });
  return [...violations, ...(await danglingAccountReferences(db))];
}

/** Rows of the tables whose account references migrations 0034 and 0039 left without foreign keys that name no account. */
async function danglingAccountReferences(db: Db): Promise<InvariantViolation[]> {
  const dangling = await sql<{ source: string; account_id: number }>`
    select 'events' as source, account_id from events e where not exists (select 1 from accounts a where a.id = e.account_id)
    union all
    select 'stablecoin_transfers', sender_account_id from stablecoin_transfers t
     where not exists (select 1 from accounts a where a.id = t.sender_account_id)
    union all
    select 'stablecoin_transfers', recipient_account_id from stablecoin_transfers t
     where not exists (select 1 from accounts a where a.id = t.recipient_account_id)
    union all
    select 'limit_volume', account_id from limit_volume v where not exists (select 1 from accounts a where a.id = v.account_id)
    union all
    select 'idempotency_keys', account_id from idempotency_keys k where not exists (select 1 from accounts a where a.id = k.account_id)
     limit 100`.execute(db);
  return dangling.rows.map((row) => ({
    invariant: 'references_an_account',
    detail: `a row of ${row.source} names account ${row.account_id}, which does not exist`,
  }));
}
