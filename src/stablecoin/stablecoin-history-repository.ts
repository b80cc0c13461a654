// SQL for the caller's stablecoin history (GET /stablecoin/transfers): one list, newest first by
// (created_at, id), of every kind of stablecoin movement the caller made or received. Each kind is a
// branch of one UNION ALL with the same columns, read newest first through its own index and
// bounded by the page size, then merged; a page never reads more than (branches × limit) rows.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { Token } from '../money/assets.js';
import type { Position } from '../platform/cursor.js';

/** Kinds of stablecoin movement. */
export type HistoryType = 'transfer' | 'withdrawal' | 'deposit';

export interface HistoryRow {
  /** Unique per caller across kinds: each kind's ids carry their own prefix. */
  id: string;
  type: HistoryType;
  /** `sent`: money left the caller's balance; `received`: money reached it. */
  direction: 'sent' | 'received';
  currency: Token;
  /** Before fee, as recorded (the caller's view is chosen when presenting it). */
  amountMinor: bigint;
  feeMinor: bigint;
  status: string;
  /** The other user of a transfer; null for movements to or from the chain. */
  counterpartyHandle: string | null;
  /** Withdrawals: the external address sent to; deposits: the address they came from; with the chain transaction. Null for transfers. */
  address: string | null;
  txHash: string | null;
  createdAt: Date;
}

function before(position: Position | null, createdAt: RawBuilder<unknown>, id: RawBuilder<unknown>) {
  return position
    ? sql`and (${createdAt}, ${id}) < (${position.createdAt.toISOString()}::timestamptz, ${position.id}::text collate "C")`
    : sql``;
}

export async function listHistory(db: Db, input: { accountId: number; after: Position | null; limit: number }): Promise<HistoryRow[]> {
  const me = input.accountId;
  const n = input.limit;
  // Ids are compared byte-wise ("C" collation) in every branch, in the cursor and in the merge alike,
  // so that each branch's first n rows are exactly the rows the merge wants.
  const transferId = sql`t.id collate "C"`;
  const cursor = before(input.after, sql.ref('t.created_at'), transferId);
  const withdrawalId = sql`w.id collate "C"`;
  const withdrawalCursor = before(input.after, sql.ref('w.created_at'), withdrawalId);
  const depositId = sql`d.id collate "C"`;
  const depositCursor = before(input.after, sql.ref('d.credited_at'), depositId);
  // Every branch yields: id, type, direction, currency, amount (before fee), fee, status,
  // counterparty_id (an account id, or null), created_at.
  //
  // Withdrawals: type 'withdrawal', direction 'sent', gross, fee, counterparty_id null, with their
  // address and tx_hash (null in the transfer branches). Deposits (chain_deposits): type 'deposit',
  // direction 'received', the credited amount, fee 0, counterparty_id null, the sender's address
  // and tx_hash, positioned by when they were credited. Each branch has an index on (account,
  // time desc, id collate "C" desc) and the same cursor condition.
  const rows = await sql<{
    id: string;
    type: HistoryType;
    direction: 'sent' | 'received';
    currency: Token;
    amount: bigint;
    fee: bigint;
    status: string;
    counterparty_handle: string | null;
    address: string | null;
    tx_hash: string | null;
    created_at: Date;
  }>`
    select h.id, h.type, h.direction, h.currency, h.amount, h.fee, h.status, a.handle as counterparty_handle,
           h.address, h.tx_hash, h.created_at
      from ((select t.id, 'transfer' as type, 'sent' as direction, t.currency, t.amount, t.fee, t.status,
                    t.recipient_account_id as counterparty_id, null::text as address, null::text as tx_hash, t.created_at
               from stablecoin_transfers t where t.sender_account_id = ${me} ${cursor}
              order by t.created_at desc, ${transferId} desc limit ${n})
            union all
            (select t.id, 'transfer', 'received', t.currency, t.amount, t.fee, t.status,
                    t.sender_account_id, null, null, t.created_at
               from stablecoin_transfers t where t.recipient_account_id = ${me} ${cursor}
              order by t.created_at desc, ${transferId} desc limit ${n})
            union all
            (select w.id, 'withdrawal', 'sent', w.currency, w.gross, w.fee, w.status,
                    null, w.address,
                    -- While pending, the hot wallet's current transaction: a stuck one replaced
                    -- (same nonce, higher fee) has a new hash, and the first will never be mined.
                    case when w.status = 'pending'
                         then coalesce((select o.tx_hash from hot_wallet_outbox o
                                         where o.purpose = 'withdrawal' and o.reference_id = w.id), w.tx_hash)
                         else w.tx_hash end,
                    w.created_at
               from withdrawals w where w.account_id = ${me} ${withdrawalCursor}
              order by w.created_at desc, ${withdrawalId} desc limit ${n})
            union all
            (select d.id, 'deposit', 'received', d.token, d.amount, 0::bigint,
                    case when d.status = 'blocked' then 'blocked' else 'complete' end,
                    null, d.from_address, d.tx_hash, d.credited_at
               from chain_deposits d where d.account_id = ${me} ${depositCursor}
              order by d.credited_at desc, ${depositId} desc limit ${n})) h
      left join accounts a on a.id = h.counterparty_id
     order by h.created_at desc, h.id collate "C" desc
     limit ${n}`.execute(db);
  return rows.rows.map((r) => ({
    id: r.id,
    type: r.type,
    direction: r.direction,
    currency: r.currency,
    amountMinor: BigInt(r.amount),
    feeMinor: BigInt(r.fee),
    status: r.status,
    counterpartyHandle: r.counterparty_handle,
    address: r.address,
    txHash: r.tx_hash,
    createdAt: new Date(r.created_at),
  }));
}
