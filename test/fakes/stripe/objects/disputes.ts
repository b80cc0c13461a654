// Disputes (chargebacks) and early fraud warnings exist only because a cardholder's bank says so, so
// the stand-in makes them through test controls. A dispute withdraws its amount and Stripe's dispute
// fee from the balance (a balance transaction, as `balance_transactions` on the Dispute); won, the
// amount comes back; an inquiry (`warning_*`) moves no money. Events as Stripe emits them:
// charge.dispute.created, .funds_withdrawn, .updated, .funds_reinstated, .closed, and
// radar.early_fraud_warning.created.
import { newId } from '../ids.js';
import { type Context, snapshot, unixSeconds } from '../store.js';
import { type BalanceTransaction, DISPUTE_FEE, recordBalanceTransaction } from './balance-transactions.js';
import { type Charge, chargeOfIntent } from './charges.js';

export type DisputeStatus =
  'warning_needs_response' | 'warning_under_review' | 'warning_closed' | 'needs_response' | 'under_review' | 'won' | 'lost';

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  balance_transactions: BalanceTransaction[];
  charge: string;
  created: number;
  currency: string;
  evidence_details: { due_by: number; has_evidence: boolean; past_due: boolean; submission_count: number };
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string;
  status: DisputeStatus;
}

export interface EarlyFraudWarning {
  id: string;
  object: 'radar.early_fraud_warning';
  actionable: boolean;
  charge: string;
  created: number;
  fraud_type: string;
  livemode: false;
  payment_intent: string | null;
}

const DAY = 24 * 3600;

function succeededCharge(ctx: Context, paymentIntentId: string): Charge {
  const charge = chargeOfIntent(ctx, paymentIntentId);
  if (charge === undefined) throw new Error(`Stripe stand-in: PaymentIntent ${paymentIntentId} has no succeeded charge`);
  return charge;
}

export interface OpenDisputeOptions {
  /** Defaults to what is left of the charge after refunds. */
  amount?: number;
  reason?: string;
  /** An inquiry: no money withdrawn until it becomes a chargeback (the stand-in closes it only as won). */
  inquiry?: boolean;
}

export function openDispute(ctx: Context, paymentIntentId: string, options: OpenDisputeOptions = {}): Dispute {
  const charge = succeededCharge(ctx, paymentIntentId);
  if ([...ctx.store.disputes.values()].some((d) => d.charge === charge.id))
    throw new Error(`Stripe stand-in: charge ${charge.id} is already disputed (one dispute per charge)`);
  const amount = options.amount ?? charge.amount - charge.amount_refunded;
  if (amount < 1 || amount > charge.amount) throw new Error(`Stripe stand-in: a dispute of ${amount} on a charge of ${charge.amount}`);
  const created = unixSeconds(ctx.clock);
  const dispute: Dispute = {
    id: newId('dp'),
    object: 'dispute',
    amount,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    evidence_details: { due_by: created + 7 * DAY, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: options.inquiry === true,
    livemode: false,
    metadata: {},
    payment_intent: paymentIntentId,
    reason: options.reason ?? 'fraudulent',
    status: options.inquiry === true ? 'warning_needs_response' : 'needs_response',
  };
  ctx.store.disputes.set(dispute.id, dispute);
  if (options.inquiry === true) {
    ctx.emit('charge.dispute.created', dispute);
    return snapshot(dispute);
  }
  charge.disputed = true;
  dispute.balance_transactions.push(
    recordBalanceTransaction(ctx, {
      amount: -amount,
      currency: dispute.currency,
      source: dispute.id,
      type: 'adjustment',
      category: 'dispute',
      fee: { amount: DISPUTE_FEE, description: 'Dispute fee' },
      description: `Chargeback withdrawal for ${charge.id}`,
    }),
  );
  ctx.emit('charge.dispute.created', dispute);
  ctx.emit('charge.dispute.funds_withdrawn', dispute);
  return snapshot(dispute);
}

function findDispute(ctx: Context, disputeId: string): Dispute {
  const dispute = ctx.store.disputes.get(disputeId);
  if (dispute === undefined) throw new Error(`Stripe stand-in: no dispute ${disputeId}`);
  return dispute;
}

/** Test control: the platform submits evidence; the dispute is under review (charge.dispute.updated). */
export function submitDisputeEvidence(ctx: Context, disputeId: string): Dispute {
  const dispute = findDispute(ctx, disputeId);
  const previous = { status: dispute.status };
  if (dispute.status === 'needs_response') dispute.status = 'under_review';
  else if (dispute.status === 'warning_needs_response') dispute.status = 'warning_under_review';
  else throw new Error(`Stripe stand-in: dispute ${disputeId} is ${dispute.status}`);
  dispute.evidence_details.has_evidence = true;
  dispute.evidence_details.submission_count += 1;
  ctx.emit('charge.dispute.updated', dispute, previous);
  return snapshot(dispute);
}

/** Test control: the card network decides. Won: the amount comes back (the fee stays with Stripe). */
export function closeDispute(ctx: Context, disputeId: string, outcome: 'won' | 'lost'): Dispute {
  const dispute = findDispute(ctx, disputeId);
  if (['won', 'lost', 'warning_closed'].includes(dispute.status))
    throw new Error(`Stripe stand-in: dispute ${disputeId} is closed already`);
  const previous = { status: dispute.status };
  if (dispute.status.startsWith('warning_')) {
    if (outcome === 'lost')
      throw new Error('Stripe stand-in: an inquiry closes only without a chargeback (won); open a dispute for a loss');
    dispute.status = 'warning_closed';
    ctx.emit('charge.dispute.closed', dispute, previous);
    return snapshot(dispute);
  }
  dispute.status = outcome;
  if (outcome === 'won') {
    dispute.balance_transactions.push(
      recordBalanceTransaction(ctx, {
        amount: dispute.amount,
        currency: dispute.currency,
        source: dispute.id,
        type: 'adjustment',
        category: 'dispute_reversal',
        description: `Chargeback reversal for ${dispute.charge}`,
      }),
    );
    ctx.emit('charge.dispute.funds_reinstated', dispute);
  }
  ctx.emit('charge.dispute.closed', dispute, previous);
  return snapshot(dispute);
}

/** Test control: the issuer warns that a charge is likely fraud. `namePaymentIntent: false` for a warning that names only the charge. */
export function earlyFraudWarning(
  ctx: Context,
  paymentIntentId: string,
  options: { fraudType?: string; namePaymentIntent?: boolean } = {},
): EarlyFraudWarning {
  const charge = succeededCharge(ctx, paymentIntentId);
  const warning: EarlyFraudWarning = {
    id: newId('issfr'),
    object: 'radar.early_fraud_warning',
    actionable: !charge.disputed && !charge.refunded,
    charge: charge.id,
    created: unixSeconds(ctx.clock),
    fraud_type: options.fraudType ?? 'made_with_stolen_card',
    livemode: false,
    payment_intent: options.namePaymentIntent === false ? null : paymentIntentId,
  };
  ctx.store.earlyFraudWarnings.set(warning.id, warning);
  ctx.emit('radar.early_fraud_warning.created', warning);
  return snapshot(warning);
}
