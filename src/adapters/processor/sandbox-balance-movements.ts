// The sandbox processor's balance movements, from its own books, in the shape Stripe's balance
// transactions take (reconciliation, DESIGN §18): a succeeded card charge or settled bank debit
// comes in, a paid payout and a refund go out, a payout reversal comes back, a failed refund comes
// back. The sandbox keeps no fee and knows no disputes (they are test helpers' events, not its
// records), so a sandbox dispute shows in reconciliation as a booking the processor does not list.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { MAX_BALANCE_MOVEMENTS_PER_QUERY, type BalanceMovementsQuery, type ProcessorBalanceMovement } from './payment-processor.js';

interface MovementRow {
  ref: string;
  type: string;
  category: string;
  amount: string;
  created_at: Date | string;
  source_ref: string;
}

export async function sandboxBalanceMovements(db: Db, query: BalanceMovementsQuery): Promise<ProcessorBalanceMovement[]> {
  const { from, to, currency } = query;
  const { rows } = await sql<MovementRow>`
    select * from (
      select 'sbx_txn_' || ref as ref, case kind when 'bank_debit' then 'payment' else 'charge' end as type,
             'charge' as category, amount::text, coalesce(settles_at, created_at) as created_at, ref as source_ref
        from sandbox_charges where kind in ('card_charge', 'bank_debit') and status = 'succeeded' and currency = ${currency}
      union all
      select 'sbx_txn_' || ref, 'transfer', 'transfer', (-amount)::text, created_at, ref
        from sandbox_charges where kind = 'payout' and status = 'succeeded' and currency = ${currency}
      union all
      select 'sbx_txn_' || ref, 'refund', 'refund', (-amount)::text, created_at, ref
        from sandbox_refunds where currency = ${currency}
      union all
      select 'sbx_txn_' || r.ref, 'transfer_refund', 'transfer_reversal', r.amount::text, r.created_at, r.ref
        from sandbox_payout_reversals r join sandbox_charges p on p.ref = r.payout_ref where p.currency = ${currency}
    ) movements
     where created_at >= ${from} and created_at < ${to}
     order by created_at, ref
     limit ${MAX_BALANCE_MOVEMENTS_PER_QUERY + 1}`.execute(db);
  if (rows.length > MAX_BALANCE_MOVEMENTS_PER_QUERY) {
    throw new Error(`sandbox: more than ${MAX_BALANCE_MOVEMENTS_PER_QUERY} balance movements for ${currency} in one range`);
  }
  return rows.map((row) => ({
    ref: row.ref,
    type: row.type,
    category: row.category,
    currency,
    amountMinor: BigInt(row.amount),
    processorFeeMinor: 0n,
    createdAt: new Date(row.created_at),
    sourceRef: row.source_ref,
  }));
}
