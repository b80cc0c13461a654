// The ledger's side of processor reconciliation: every posted booking on the processor clearing
// account of one currency in a time range, each with the processor id it answers to. The booking's
// operation id names the peerpay record (fiat:<transfer>, refund:<refund>, dispute:<dispute>,
// payout:<payout>:paid, payout:<payout>:reversal:<reversal>), and that record keeps the processor's
// id (a PaymentIntent, re_, dp_, tr_, trr_). Pending bookings are left out: the processor's
// balance moves when a charge succeeds or a payout is made, which is when peerpay posts them.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { FiatCurrency } from '../../money/assets.js';

/** The most bookings one reconciliation reads for one day and currency; beyond it the read refuses to guess. */
export const MAX_CLEARING_BOOKINGS_PER_QUERY = 50_000;

export interface ClearingBooking {
  /** The ledger transfer's id. */
  id: bigint;
  operationId: string;
  code: string;
  /** Signed as the processor's balance moves: a charge received is positive, a refund or payout negative. */
  amountMinor: bigint;
  createdAt: Date;
  /** The processor's id of what moved the money; null when the booking names no processor record. */
  sourceRef: string | null;
}

interface BookingRow {
  id: string;
  operation_id: string;
  code: string;
  amount: string;
  created_at: Date | string;
  source_ref: string | null;
}

export async function readClearingBookings(db: Db, input: { currency: FiatCurrency; from: Date; to: Date }): Promise<ClearingBooking[]> {
  const { rows } = await sql<BookingRow>`
    with clearing as (select id from ledger_accounts where code = ${`platform:processor_clearing:${input.currency}`}),
    bookings as (
      select t.id, t.operation_id, t.code, t.created_at,
             case when t.debit_account_id = (select id from clearing) then t.amount else -t.amount end as amount,
             split_part(t.operation_id, ':', 1) as record, split_part(t.operation_id, ':', 2) as record_id,
             split_part(t.operation_id, ':', 3) as step, split_part(t.operation_id, ':', 4) as step_id
        from ledger_transfers t
       where (t.debit_account_id = (select id from clearing) or t.credit_account_id = (select id from clearing))
         and t.kind in ('posted', 'post_pending') and t.created_at >= ${input.from} and t.created_at < ${input.to})
    select b.id::text, b.operation_id, b.code, b.amount::text, b.created_at,
           case b.record
             when 'fiat' then (select processor_ref from fiat_transfers where id = b.record_id)
             when 'refund' then (select processor_ref from refunds where id = b.record_id)
             when 'dispute' then (select processor_ref from disputes where id = b.record_id)
             when 'payout' then case b.step
               when 'reversal' then (select processor_ref from payout_reversals where id = b.step_id)
               else (select processor_ref from payouts where id = b.record_id) end
           end as source_ref
      from bookings b order by b.created_at, b.id
     limit ${MAX_CLEARING_BOOKINGS_PER_QUERY + 1}`.execute(db);
  if (rows.length > MAX_CLEARING_BOOKINGS_PER_QUERY) {
    throw new Error(`more than ${MAX_CLEARING_BOOKINGS_PER_QUERY} processor clearing bookings for ${input.currency} in one range`);
  }
  return rows.map((row) => ({
    id: BigInt(row.id),
    operationId: row.operation_id,
    code: row.code,
    amountMinor: BigInt(row.amount),
    createdAt: new Date(row.created_at),
    sourceRef: row.source_ref,
  }));
}
