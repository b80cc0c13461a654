// SQL for payouts of received money to users' connected payout accounts.
import { giveVolumeBack } from '../compliance/limits/limits-repository.js';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { leaseDueRows } from '../db/lease.js';
import type { PayoutsTable } from '../db/schema.js';
import type { Trx } from '../db/transaction.js';
import { FIAT_CURRENCIES, type FiatCurrency } from '../money/assets.js';

export interface Payout {
  id: string;
  accountId: number;
  currency: FiatCurrency;
  amountMinor: bigint;
  status: 'pending' | 'paid' | 'failed';
  instrumentRef: string | null;
  processorRef: string | null;
  failureCode: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

const COLUMNS = [
  'id',
  'account_id',
  'currency',
  'amount',
  'status',
  'instrument_ref',
  'processor_ref',
  'failure_code',
  'created_at',
  'completed_at',
] as const;

function toPayout(row: Omit<Selectable<PayoutsTable>, 'locked_until'>): Payout {
  return {
    id: row.id,
    accountId: row.account_id,
    currency: row.currency as FiatCurrency,
    amountMinor: row.amount,
    status: row.status,
    instrumentRef: row.instrument_ref,
    processorRef: row.processor_ref,
    failureCode: row.failure_code,
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

export interface PayoutCandidate {
  accountId: number;
  currency: FiatCurrency;
  payoutRef: string;
}

/**
 * Balances waiting to be paid out: fiat money available to an account that has a payout account
 * connected, unless a payout to that very payout account failed before (paying it again would fail
 * again; connecting another payout account starts afresh).
 */
export async function findPayoutCandidates(db: Db, limit: number): Promise<PayoutCandidate[]> {
  const rows = await sql<{ account_id: number; asset: string; payout_ref: string }>`
    select la.owner_account_id as account_id, la.asset, pc.payout_ref
      from ledger_accounts la
      join processor_customers pc on pc.account_id = la.owner_account_id
     where la.kind = 'available'
       and la.asset in (${sql.join([...FIAT_CURRENCIES])})
       and pc.payout_ref is not null
       and la.balance - la.pending_debits > 0
       and not exists (select 1 from payouts p
                        where p.account_id = la.owner_account_id and p.instrument_ref = pc.payout_ref and p.status = 'failed')
       -- Never while the user owes in that currency, nor while its payouts are paused (DESIGN §16).
       and not exists (select 1 from ledger_accounts r
                        where r.code = 'platform:receivable:' || la.asset || ':' || la.owner_account_id and r.balance < 0)
       and not exists (select 1 from payout_pauses pp where pp.account_id = la.owner_account_id and pp.lifted_at is null)
       -- Nor while the account is frozen, for payouts or for everything (DESIGN §17).
       and not exists (select 1 from accounts fa where fa.id = la.owner_account_id and fa.frozen_scope is not null)
     order by la.id
     limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ accountId: r.account_id, currency: r.asset as FiatCurrency, payoutRef: r.payout_ref }));
}

/**
 * Locks the account's processor record for this transaction, skipping it when another worker holds
 * it, so that one worker at a time creates an account's payouts. Returns the payout account now
 * connected, or null when the row is taken.
 */
export async function lockPayoutAccount(trx: Trx, accountId: number): Promise<string | null | undefined> {
  const row = await trx
    .selectFrom('processor_customers')
    .select('payout_ref')
    .where('account_id', '=', accountId)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row ? row.payout_ref : undefined;
}

/** The money an account can pay out now in `currency` (posted balance less pending debits). */
export async function spendableBalance(trx: Trx, accountId: number, currency: FiatCurrency): Promise<bigint> {
  const row = await trx
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_debits'])
    .where('owner_account_id', '=', accountId)
    .where('kind', '=', 'available')
    .where('asset', '=', currency)
    .executeTakeFirst();
  return row ? row.balance - row.pending_debits : 0n;
}

export async function insertPayout(trx: Trx, payout: Payout): Promise<void> {
  await trx
    .insertInto('payouts')
    .values({
      id: payout.id,
      account_id: payout.accountId,
      currency: payout.currency,
      amount: payout.amountMinor,
      status: payout.status,
      instrument_ref: payout.instrumentRef,
      created_at: payout.createdAt,
    })
    .execute();
}

/** Claims up to `limit` pending payouts for the payout job; see db/lease.ts. */
export async function claimPendingPayouts(db: Db, input: { now: Date; leaseMs: number; limit: number }): Promise<Payout[]> {
  const ids = await leaseDueRows(db, { table: 'payouts', due: sql`status = 'pending'`, orderBy: 'created_at', ...input });
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('payouts').select(COLUMNS).where('id', 'in', ids).orderBy('created_at').execute();
  return rows.map(toPayout);
}

/** Moves a pending payout to paid or failed; false when it was no longer pending. */
export async function finishPayout(
  trx: Trx,
  input: { id: string; status: 'paid' | 'failed'; processorRef: string; failureCode: string | null; completedAt: Date },
): Promise<boolean> {
  const result = await trx
    .updateTable('payouts')
    .set({
      status: input.status,
      processor_ref: input.processorRef,
      failure_code: input.failureCode,
      completed_at: input.completedAt,
      locked_until: null,
    })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .returning(['account_id', 'currency', 'amount', 'created_at'])
    .executeTakeFirst();
  if (!result) return false;
  // A payout that failed gives its volume back to the account's limits (decision 0036).
  if (input.status === 'failed')
    await giveVolumeBack(trx, {
      accountId: result.account_id,
      currency: result.currency as FiatCurrency,
      amountMinor: result.amount,
      at: result.created_at,
    });
  return true;
}

/** The processor has the payout but has not paid it yet: remember its reference, look again later. */
export async function markPayoutInTransit(db: Db, input: { id: string; processorRef: string; recheckAt: Date }): Promise<void> {
  await db
    .updateTable('payouts')
    .set({ processor_ref: input.processorRef, locked_until: input.recheckAt })
    .where('id', '=', input.id)
    .where('status', '=', 'pending')
    .execute();
}
