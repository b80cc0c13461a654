// peerpay's card-risk books checked against Stripe's side (the stand-in): every refund Stripe has
// is booked exactly once with its amount (what the recipient gave back plus the fee given back) and
// its outcome, every dispute once with its amount and outcome, and peerpay books none Stripe lacks.
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import type { StripeStandIn } from '../fakes/stripe/index.js';

const DISPUTE_OUTCOME: Record<string, string> = {
  needs_response: 'open',
  under_review: 'open',
  warning_needs_response: 'open',
  warning_under_review: 'open',
  won: 'won',
  warning_closed: 'won',
  lost: 'lost',
};

export async function cardRiskMismatches(db: Db, stripe: StripeStandIn): Promise<string[]> {
  const problems: string[] = [];
  const refunds = await sql<{ processor_ref: string; amount: string; fee: string; status: string }>`
    select processor_ref, amount::text, fee::text, status from refunds where processor_ref is not null`.execute(db);
  const disputes = await sql<{ processor_ref: string; amount: string; status: string }>`
    select processor_ref, amount::text, status from disputes`.execute(db);
  for (const refund of stripe.refunds()) {
    const booked = refunds.rows.filter((r) => r.processor_ref === refund.id);
    if (booked.length !== 1) {
      problems.push(`refund ${refund.id} (${refund.amount}) booked ${booked.length} times`);
      continue;
    }
    const row = booked[0]!;
    if (BigInt(row.amount) + BigInt(row.fee) !== BigInt(refund.amount))
      problems.push(`refund ${refund.id}: Stripe ${refund.amount}, peerpay ${row.amount} + fee ${row.fee}`);
    const outcome = refund.status === 'canceled' ? 'failed' : refund.status;
    if (row.status !== outcome) problems.push(`refund ${refund.id}: Stripe ${refund.status}, peerpay ${row.status}`);
  }
  for (const row of refunds.rows)
    if (!stripe.refunds().some((r) => r.id === row.processor_ref))
      problems.push(`peerpay books refund ${row.processor_ref} that Stripe lacks`);
  for (const dispute of stripe.disputes()) {
    const booked = disputes.rows.filter((d) => d.processor_ref === dispute.id);
    if (booked.length !== 1) {
      problems.push(`dispute ${dispute.id} booked ${booked.length} times`);
      continue;
    }
    const row = booked[0]!;
    if (BigInt(row.amount) !== BigInt(dispute.amount))
      problems.push(`dispute ${dispute.id}: Stripe ${dispute.amount}, peerpay ${row.amount}`);
    if (row.status !== DISPUTE_OUTCOME[dispute.status])
      problems.push(`dispute ${dispute.id}: Stripe ${dispute.status}, peerpay ${row.status}`);
  }
  for (const row of disputes.rows)
    if (!stripe.disputes().some((d) => d.id === row.processor_ref))
      problems.push(`peerpay books dispute ${row.processor_ref} that Stripe lacks`);
  return problems;
}
