// SQL for sweeps (table chain_sweeps) and for marking the deposits a confirmed sweep moved. Status
// changes are conditional on the sweep still being open, so that two workers that see the same
// outcome record it once.
import { sql, type Selectable } from 'kysely';
import type { Address, Hash, Hex } from 'viem';
import type { Db } from '../../db/database.js';
import type { ChainDepositsTable, ChainSweepsTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import type { Token } from '../../money/assets.js';

export interface Sweep {
  id: string;
  accountId: number;
  address: Address;
  token: Token;
  amountMinor: bigint;
  coversThroughBlock: bigint;
  authNonce: Hex;
  validBefore: bigint;
  status: 'open' | 'confirmed' | 'reverted' | 'failed';
}

const SWEEP_COLUMNS = [
  'id',
  'account_id',
  'address',
  'token',
  'amount',
  'covers_through_block',
  'auth_nonce',
  'valid_before',
  'status',
] as const;

function toSweep(row: Pick<Selectable<ChainSweepsTable>, (typeof SWEEP_COLUMNS)[number]>): Sweep {
  return {
    id: row.id,
    accountId: row.account_id,
    address: row.address as Address,
    token: row.token,
    amountMinor: BigInt(row.amount),
    coversThroughBlock: BigInt(row.covers_through_block),
    authNonce: row.auth_nonce as Hex,
    validBefore: BigInt(row.valid_before),
    status: row.status,
  };
}

/** Inserts an open sweep unless the address already has one open for this token; the sweep, or null. */
export async function insertOpenSweep(db: Db, sweep: Omit<Sweep, 'status'> & { createdAt: Date }): Promise<Sweep | null> {
  const row = await db
    .insertInto('chain_sweeps')
    .values({
      id: sweep.id,
      account_id: sweep.accountId,
      address: sweep.address,
      token: sweep.token,
      amount: sweep.amountMinor,
      covers_through_block: sweep.coversThroughBlock,
      auth_nonce: sweep.authNonce,
      valid_before: sweep.validBefore,
      status: 'open',
      created_at: sweep.createdAt,
    })
    .onConflict((oc) => oc.columns(['address', 'token']).where('status', '=', 'open').doNothing())
    .returning(SWEEP_COLUMNS)
    .executeTakeFirst();
  return row ? toSweep(row) : null;
}

export async function openSweeps(db: Db, limit: number): Promise<Sweep[]> {
  const rows = await db
    .selectFrom('chain_sweeps')
    .select(SWEEP_COLUMNS)
    .where('status', '=', 'open')
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => toSweep(r));
}

export async function findSweep(db: Db, id: string): Promise<Sweep | undefined> {
  const row = await db.selectFrom('chain_sweeps').select(SWEEP_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toSweep(row) : undefined;
}

/** Ends an open sweep; false when it was no longer open. */
export async function finishSweep(
  db: Db | Trx,
  input: { id: string; status: 'confirmed' | 'reverted' | 'failed'; txHash: Hash | null; failure: string | null; at: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('chain_sweeps')
    .set({
      status: input.status,
      tx_hash: input.txHash?.toLowerCase() ?? null,
      failure: input.failure?.slice(0, 500) ?? null,
      finished_at: input.at,
    })
    .where('id', '=', input.id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Marks the address's unswept deposits of this token up to the sweep's block as moved by it. */
export async function markDepositsSwept(trx: Trx, sweep: Sweep, at: Date): Promise<number> {
  const result = await trx
    .updateTable('chain_deposits')
    .set({ sweep_id: sweep.id, swept_at: at })
    .where('account_id', '=', sweep.accountId)
    .where('token', '=', sweep.token)
    .where('swept_at', 'is', null)
    .where('block_number', '<=', sweep.coversThroughBlock)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deposits credited after the sweep that moved their tokens was confirmed (the sweep read the
 * balance before the watcher reached their block): marked with the earliest confirmed sweep that
 * covers their block. At most `limit`.
 */
export async function markCoveredDeposits(db: Db, limit: number): Promise<number> {
  const result = await sql`
    update chain_deposits d
       set sweep_id = s.id, swept_at = s.finished_at
      from chain_sweeps s
     where d.id in (
             select u.id from chain_deposits u
              where u.swept_at is null
                and exists (select 1 from chain_sweeps c where c.status = 'confirmed' and c.account_id = u.account_id
                               and c.token = u.token and c.covers_through_block >= u.block_number)
              limit ${limit})
       and s.id = (select c.id from chain_sweeps c where c.status = 'confirmed' and c.account_id = d.account_id
                      and c.token = d.token and c.covers_through_block >= d.block_number
                    order by c.covers_through_block, c.id limit 1)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** (account, token) pairs with credited deposits not yet swept and no sweep open; at most `limit`. */
export async function sweepTargets(db: Db, limit: number): Promise<{ accountId: number; token: Token }[]> {
  const rows = await sql<Pick<Selectable<ChainDepositsTable>, 'account_id' | 'token'>>`
    select t.account_id, t.token from (
      select distinct d.account_id, d.token from chain_deposits d
       where d.swept_at is null
         and not exists (select 1 from chain_sweeps s where s.status = 'open' and s.account_id = d.account_id and s.token = d.token)) t
     -- Tokens that withdrawals wait for first (decision 0019): their sweeps are what pays them.
     order by exists (select 1 from withdrawals w where w.status = 'pending' and w.waiting_since is not null and w.currency = t.token) desc,
              t.account_id, t.token
     limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ accountId: r.account_id, token: r.token }));
}
