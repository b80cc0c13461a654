// SQL for the caller's fiat history: transfers sent and received, and the entries derived from them
// and from payouts. Each source is read newest first through its own index, bounded by the page
// size, and the sources are merged; a page never reads more than (sources × limit) rows.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import type { FiatCurrency } from '../money/assets.js';
import type { FiatPaymentMethod } from '../money/fees.js';
import type { FiatTransferStatus } from './fiat-transfer.js';
import type { Position } from '../platform/cursor.js';

/** A recipient sees a transfer once it reached them: pending, completed, or returned after being pending. */
const VISIBLE_TO_RECIPIENT = sql`(t.status in ('pending', 'completed') or (t.status = 'failed' and t.failure_code = 'bank_debit_returned'))`;

function before(position: Position | null, createdAt: RawBuilder<unknown>, id: RawBuilder<unknown>) {
  return position
    ? sql`and (${createdAt}, ${id}) < (${position.createdAt.toISOString()}::timestamptz, ${position.id}::text collate "C")`
    : sql``;
}

export interface TransferHistoryRow {
  direction: 'sent' | 'received';
  id: string;
  currency: FiatCurrency;
  amountMinor: bigint;
  feeMinor: bigint;
  paymentMethod: FiatPaymentMethod;
  status: FiatTransferStatus;
  failureCode: string | null;
  note: string | null;
  senderHandle: string;
  recipientHandle: string;
  /** What refunds (not failed) gave back of the amount (DESIGN §16). */
  refundedMinor: bigint;
  createdAt: Date;
  settlesAt: Date | null;
  completedAt: Date | null;
}

export async function listTransfers(
  db: Db,
  input: { accountId: number; after: Position | null; limit: number },
): Promise<TransferHistoryRow[]> {
  const cursor = before(input.after, sql.ref('t.created_at'), sql`t.id collate "C"`);
  const rows = await sql<{
    direction: 'sent' | 'received';
    id: string;
    currency: string;
    amount: bigint;
    fee: bigint;
    payment_method: FiatPaymentMethod;
    status: FiatTransferStatus;
    failure_code: string | null;
    note: string | null;
    sender_handle: string;
    recipient_handle: string;
    refunded: string;
    created_at: Date;
    settles_at: Date | null;
    completed_at: Date | null;
  }>`
    select x.*, s.handle as sender_handle, r.handle as recipient_handle,
           (select coalesce(sum(f.amount), 0) from refunds f where f.transfer_id = x.id and f.status <> 'failed')::text as refunded
      from ((select 'sent' as direction, t.* from fiat_transfers t
              where t.sender_account_id = ${input.accountId} ${cursor}
              order by t.created_at desc, t.id collate "C" desc limit ${input.limit})
            union all
            (select 'received' as direction, t.* from fiat_transfers t
              where t.recipient_account_id = ${input.accountId} and ${VISIBLE_TO_RECIPIENT} ${cursor}
              order by t.created_at desc, t.id collate "C" desc limit ${input.limit})) x
      join accounts s on s.id = x.sender_account_id
      join accounts r on r.id = x.recipient_account_id
     order by x.created_at desc, x.id collate "C" desc
     limit ${input.limit}`.execute(db);
  return rows.rows.map((r) => ({
    direction: r.direction,
    id: r.id,
    currency: r.currency as FiatCurrency,
    amountMinor: BigInt(r.amount),
    feeMinor: BigInt(r.fee),
    paymentMethod: r.payment_method,
    status: r.status,
    failureCode: r.failure_code,
    note: r.note,
    senderHandle: r.sender_handle,
    recipientHandle: r.recipient_handle,
    refundedMinor: BigInt(r.refunded),
    createdAt: new Date(r.created_at),
    settlesAt: r.settles_at === null ? null : new Date(r.settles_at),
    completedAt: r.completed_at === null ? null : new Date(r.completed_at),
  }));
}

export type EntryType = 'debit' | 'fee' | 'credit' | 'payout';

export interface EntryRow {
  /** Unique per caller: `<transfer id>:debit`, `<transfer id>:fee`, `<transfer id>:credit`, or the payout id. */
  id: string;
  type: EntryType;
  transferId: string | null;
  payoutId: string | null;
  currency: FiatCurrency;
  amountMinor: bigint;
  status: string;
  paymentMethod: FiatPaymentMethod | null;
  counterpartyHandle: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export async function listEntries(db: Db, input: { accountId: number; after: Position | null; limit: number }): Promise<EntryRow[]> {
  const me = input.accountId;
  const n = input.limit;
  // Entry ids are compared byte-wise ("C" collation) in every branch, in the cursor and in the
  // merge alike, so that each branch's first n rows are exactly the rows the merge wants.
  const debitId = sql`(t.id || ':debit') collate "C"`;
  const feeId = sql`(t.id || ':fee') collate "C"`;
  const creditId = sql`(t.id || ':credit') collate "C"`;
  const payoutId = sql`p.id collate "C"`;
  const rows = await sql<{
    entry_id: string;
    type: EntryType;
    transfer_id: string | null;
    payout_id: string | null;
    currency: string;
    amount: bigint;
    status: string;
    payment_method: FiatPaymentMethod | null;
    counterparty_handle: string | null;
    created_at: Date;
    completed_at: Date | null;
  }>`
    select e.*, a.handle as counterparty_handle
      from ((select ${debitId} as entry_id, 'debit' as type, t.id as transfer_id, null::text as payout_id, t.currency, t.amount,
                    t.status, t.payment_method, t.recipient_account_id as counterparty_id, t.created_at, t.completed_at
               from fiat_transfers t where t.sender_account_id = ${me} ${before(input.after, sql.ref('t.created_at'), debitId)}
              order by t.created_at desc, ${debitId} desc limit ${n})
            union all
            (select ${feeId}, 'fee', t.id, null::text, t.currency, t.fee,
                    t.status, t.payment_method, null::integer, t.created_at, t.completed_at
               from fiat_transfers t where t.sender_account_id = ${me} and t.fee > 0 ${before(input.after, sql.ref('t.created_at'), feeId)}
              order by t.created_at desc, ${feeId} desc limit ${n})
            union all
            (select ${creditId}, 'credit', t.id, null::text, t.currency, t.amount,
                    t.status, t.payment_method, t.sender_account_id, t.created_at, t.completed_at
               from fiat_transfers t where t.recipient_account_id = ${me} and ${VISIBLE_TO_RECIPIENT} ${before(input.after, sql.ref('t.created_at'), creditId)}
              order by t.created_at desc, ${creditId} desc limit ${n})
            union all
            (select ${payoutId}, 'payout', null::text, p.id, p.currency, p.amount,
                    p.status, null::text, null::integer, p.created_at, p.completed_at
               from payouts p where p.account_id = ${me} ${before(input.after, sql.ref('p.created_at'), payoutId)}
              order by p.created_at desc, ${payoutId} desc limit ${n})) e
      left join accounts a on a.id = e.counterparty_id
     order by e.created_at desc, e.entry_id collate "C" desc
     limit ${n}`.execute(db);
  return rows.rows.map((r) => ({
    id: r.entry_id,
    type: r.type,
    transferId: r.transfer_id,
    payoutId: r.payout_id,
    currency: r.currency as FiatCurrency,
    amountMinor: BigInt(r.amount),
    status: r.status,
    paymentMethod: r.payment_method,
    counterpartyHandle: r.counterparty_handle,
    createdAt: new Date(r.created_at),
    completedAt: r.completed_at === null ? null : new Date(r.completed_at),
  }));
}
