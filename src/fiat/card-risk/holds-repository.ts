// SQL for holds on card-funded money (DESIGN §16): one row per card receipt held, its `remaining`
// what is still held of it.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { FiatCurrency } from '../../money/assets.js';
import { assert } from '../../platform/errors.js';

export interface Hold {
  id: string;
  accountId: number;
  currency: FiatCurrency;
  transferId: string;
  amountMinor: bigint;
  remainingMinor: bigint;
  releaseAt: Date;
}

/** At most this many holds of one account and currency are looked at by one take-back. */
const MAX_HOLDS_PER_TAKE_BACK = 10_000;

export async function insertHold(trx: Trx, hold: Hold, now: Date): Promise<void> {
  await trx
    .insertInto('fiat_holds')
    .values({
      id: hold.id,
      account_id: hold.accountId,
      currency: hold.currency,
      transfer_id: hold.transferId,
      amount: hold.amountMinor,
      remaining: hold.remainingMinor,
      release_at: hold.releaseAt,
      created_at: now,
    })
    .execute();
}

/**
 * The insert of `holds` as a WITH clause `holds_added` of a group commit's statement (returning
 * one row per hold), as insertHold makes each; each column is one array parameter.
 */
export function holdsClause(holds: readonly (Hold & { createdAt: Date })[]): RawBuilder<unknown> {
  assert(holds.length > 0, 'a holds clause inserts holds');
  return sql`holds_added as (
      insert into fiat_holds (id, account_id, currency, transfer_id, amount, remaining, release_at, created_at)
      select *
        from unnest(${holds.map((h) => h.id)}::text[], ${holds.map((h) => h.accountId)}::integer[], ${holds.map((h) => h.currency)}::text[],
                    ${holds.map((h) => h.transferId)}::text[], ${holds.map((h) => String(h.amountMinor))}::bigint[],
                    ${holds.map((h) => String(h.remainingMinor))}::bigint[], ${holds.map((h) => h.releaseAt.toISOString())}::timestamptz[],
                    ${holds.map((h) => h.createdAt.toISOString())}::timestamptz[])
      returning id
    )`;
}

/**
 * Takes `amountMinor` off the unreleased holds of the account and currency (the user is locked):
 * those of `transferId` first (the money being taken back is that transfer's), then the latest.
 * The holds add up to the `held` account, so they always cover what the take-back took from it.
 */
export async function shrinkHolds(
  trx: Trx,
  input: { accountId: number; currency: FiatCurrency; transferId: string | null; amountMinor: bigint },
): Promise<void> {
  if (input.amountMinor === 0n) return;
  const rows = await sql<{ id: string; remaining: string }>`
    select id, remaining::text as remaining from fiat_holds
     where account_id = ${input.accountId} and currency = ${input.currency} and released_at is null and remaining > 0
     order by (transfer_id = ${input.transferId ?? ''}) desc, created_at desc, id desc
     limit ${MAX_HOLDS_PER_TAKE_BACK}`.execute(trx);
  let left = input.amountMinor;
  for (const row of rows.rows) {
    if (left === 0n) break;
    const take = BigInt(row.remaining) < left ? BigInt(row.remaining) : left;
    await trx
      .updateTable('fiat_holds')
      .set((eb) => ({ remaining: eb('remaining', '-', take) }))
      .where('id', '=', row.id)
      .execute();
    left -= take;
  }
  assert(left === 0n, 'the holds cover the held money taken back');
}

/** Holds due for release, oldest first. */
export async function dueHolds(db: Db, input: { now: Date; limit: number }): Promise<Hold[]> {
  const rows = await db
    .selectFrom('fiat_holds')
    .select(['id', 'account_id', 'currency', 'transfer_id', 'amount', 'remaining', 'release_at'])
    .where('released_at', 'is', null)
    .where('release_at', '<=', input.now)
    .orderBy('release_at')
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    currency: r.currency as FiatCurrency,
    transferId: r.transfer_id,
    amountMinor: r.amount,
    remainingMinor: r.remaining,
    releaseAt: r.release_at,
  }));
}

/** Marks a hold released (the user is locked); its remaining amount, or null when it was released already. */
export async function markReleased(trx: Trx, holdId: string, now: Date): Promise<bigint | null> {
  const row = await trx
    .updateTable('fiat_holds')
    .set({ released_at: now })
    .where('id', '=', holdId)
    .where('released_at', 'is', null)
    .returning('remaining')
    .executeTakeFirst();
  return row ? row.remaining : null;
}
