// The sandbox's succeeded card charges as a WITH clause of the statement that credits them
// (fiat/card-credit-batch.ts): the sandbox's books are peerpay's own table, so a charge and the
// credit it pays for commit together, and the charge costs no statement (or commit) of its own.
// Each column is one array parameter, so the statement's text is the same whatever the batch size.
import { sql, type RawBuilder } from 'kysely';
import { CHARGES_IN_CREDIT_CLAUSE, type UnwrittenCardCharge } from './payment-processor.js';

export function sandboxChargesClause(charges: readonly UnwrittenCardCharge[]): RawBuilder<unknown> {
  const column = <T>(of: (c: UnwrittenCardCharge) => T): T[] => charges.map(of);
  // A key taken already (a charge recorded outside a credit, as chargeCard records one) is left out:
  // the caller counts the rows and does not commit a credit whose charge is another.
  return sql`${sql.id(CHARGES_IN_CREDIT_CLAUSE)} as (
      insert into sandbox_charges (ref, idempotency_key, instrument_ref, kind, currency, amount, status, settles_at, created_at)
      select c.ref, c.idempotency_key, c.instrument_ref, 'card_charge', c.currency, c.amount, 'succeeded', null, c.created_at
        from unnest(${column((c) => c.chargeRef)}::text[], ${column((c) => c.idempotencyKey)}::text[], ${column((c) => c.cardRef)}::text[],
                    ${column((c) => c.currency)}::text[], ${column((c) => String(c.amountMinor))}::bigint[],
                    ${column((c) => c.createdAt.toISOString())}::timestamptz[])
             as c(ref, idempotency_key, instrument_ref, currency, amount, created_at)
      on conflict (idempotency_key) do nothing
      returning ref
    )`;
}
