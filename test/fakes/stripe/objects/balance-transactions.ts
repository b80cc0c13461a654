// Balance transactions: every movement of the platform's Stripe balance, as Stripe records it —
// charges and ACH payments (with Stripe's processing fee), refunds and refund failures, dispute
// withdrawals (with the dispute fee) and reinstatements, transfers to connected accounts and their
// reversals. GET /v1/balance_transactions lists them newest first (what an operator reconciles
// peerpay's books against).
import { newId } from '../ids.js';
import { createdRange, listPage, listSpec } from '../lists.js';
import { readParams, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';

export type BalanceTransactionType =
  'charge' | 'payment' | 'refund' | 'payment_failure_refund' | 'adjustment' | 'transfer' | 'transfer_refund';
export type ReportingCategory = 'charge' | 'refund' | 'refund_failure' | 'dispute' | 'dispute_reversal' | 'transfer' | 'transfer_reversal';

export interface FeeDetail {
  amount: number;
  application: null;
  currency: string;
  description: string;
  type: 'stripe_fee';
}

export interface BalanceTransaction {
  id: string;
  object: 'balance_transaction';
  amount: number;
  available_on: number;
  created: number;
  currency: string;
  description: string | null;
  exchange_rate: null;
  fee: number;
  fee_details: FeeDetail[];
  net: number;
  reporting_category: ReportingCategory;
  source: string;
  status: 'available' | 'pending';
  type: BalanceTransactionType;
}

/** Stripe's dispute fee in every currency the stand-in serves (15.00; ¥1500 for zero-decimal JPY). */
export const DISPUTE_FEE = 1500;

/** Stripe's standard card pricing: 2.9% + 30 minor units. */
export function processingFee(amount: number): number {
  return Math.round((amount * 29) / 1000) + 30;
}

export function recordBalanceTransaction(
  ctx: Context,
  input: {
    amount: number;
    currency: string;
    source: string;
    type: BalanceTransactionType;
    category: ReportingCategory;
    fee?: { amount: number; description: string };
    description?: string;
  },
): BalanceTransaction {
  const created = unixSeconds(ctx.clock);
  const fee = input.fee?.amount ?? 0;
  const transaction: BalanceTransaction = {
    id: newId('txn'),
    object: 'balance_transaction',
    amount: input.amount,
    available_on: created,
    created,
    currency: input.currency,
    description: input.description ?? null,
    exchange_rate: null,
    fee,
    fee_details:
      input.fee === undefined
        ? []
        : [{ amount: fee, application: null, currency: input.currency, description: input.fee.description, type: 'stripe_fee' }],
    net: input.amount - fee,
    reporting_category: input.category,
    source: input.source,
    status: 'available',
    type: input.type,
  };
  ctx.store.balanceTransactions.set(transaction.id, transaction);
  return transaction;
}

const listBalanceSpec = { ...listSpec, created: createdRange(), type: string(), source: string(), currency: string() };

export const balanceTransactionRoutes = [
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/balance_transactions$/,
    validate: (params) => readParams(listBalanceSpec, params),
    execute(input, ctx) {
      const all = [...ctx.store.balanceTransactions.values()].filter(
        (t) =>
          (input.type === undefined || t.type === input.type) &&
          (input.source === undefined || t.source === input.source) &&
          (input.currency === undefined || t.currency === input.currency),
      );
      const page = listPage(all, input, '/v1/balance_transactions', 'balance transaction');
      return { ...page, data: page.data.map((t) => snapshot(t)) };
    },
  }),
];
