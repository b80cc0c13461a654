// The Charge a succeeded PaymentIntent made (ch_… for a card, py_… for a bank debit). peerpay reads
// one only to find its PaymentIntent (an early fraud warning that names just the charge); refunds
// and disputes update it (`amount_refunded`, `refunded`, `disputed`), and `charge.refunded` carries it.
import { noSuch } from '../errors.js';
import { newId } from '../ids.js';
import { readParams } from '../params.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';
import { processingFee, recordBalanceTransaction } from './balance-transactions.js';
import type { PaymentIntent } from './payment-intents.js';

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string;
  captured: true;
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  disputed: boolean;
  livemode: false;
  metadata: Record<string, string>;
  paid: true;
  payment_intent: string;
  payment_method: string | null;
  refunded: boolean;
  status: 'succeeded';
}

/** The charge of a PaymentIntent that has just succeeded, with its balance transaction. */
export function createCharge(ctx: Context, intent: PaymentIntent, kind: 'card' | 'bank'): Charge {
  const id = newId(kind === 'bank' ? 'py' : 'ch');
  const transaction = recordBalanceTransaction(ctx, {
    amount: intent.amount,
    currency: intent.currency,
    source: id,
    type: kind === 'bank' ? 'payment' : 'charge',
    category: 'charge',
    fee: { amount: processingFee(intent.amount), description: 'Stripe processing fees' },
  });
  const charge: Charge = {
    id,
    object: 'charge',
    amount: intent.amount,
    amount_captured: intent.amount,
    amount_refunded: 0,
    balance_transaction: transaction.id,
    captured: true,
    created: unixSeconds(ctx.clock),
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    disputed: false,
    livemode: false,
    metadata: { ...intent.metadata },
    paid: true,
    payment_intent: intent.id,
    payment_method: intent.payment_method,
    refunded: false,
    status: 'succeeded',
  };
  ctx.store.charges.set(id, charge);
  return charge;
}

/** The succeeded charge of a PaymentIntent, or undefined when it has none. */
export function chargeOfIntent(ctx: Context, intentId: string): Charge | undefined {
  const intent = ctx.store.paymentIntents.get(intentId);
  return intent?.latest_charge ? ctx.store.charges.get(intent.latest_charge) : undefined;
}

export const chargeRoutes = [
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/charges\/(?<id>[^/]+)$/,
    validate: (params, id) => ({ ...readParams({}, params), id: id ?? '' }),
    execute(input, ctx) {
      const charge = ctx.store.charges.get(input.id);
      if (charge === undefined) throw noSuch('charge', input.id, 'id', 404);
      return snapshot(charge);
    },
  }),
];
