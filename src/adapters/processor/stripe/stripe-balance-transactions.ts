// Reconciliation's read of Stripe (DESIGN §18): GET /v1/balance_transactions for one currency and
// time range (`created[gte]`, `created[lt]`), paged by the official client's auto-paging and bounded
// by MAX_BALANCE_MOVEMENTS_PER_QUERY. Each charge's source is expanded to name its PaymentIntent,
// which is the id peerpay keeps of a transfer's charge; every other source (re_, dp_, tr_, trr_) is
// already the id peerpay keeps.
import type Stripe from 'stripe';
import { isFiatCurrency } from '../../../money/assets.js';
import { MAX_BALANCE_MOVEMENTS_PER_QUERY, type BalanceMovementsQuery, type ProcessorBalanceMovement } from '../payment-processor.js';
import { stripeCallError } from './stripe-errors.js';
import { idOf } from './stripe-risk-objects.js';

/** Stripe's largest page. */
const PAGE_SIZE = 100;

export async function listStripeBalanceMovements(stripe: Stripe, query: BalanceMovementsQuery): Promise<ProcessorBalanceMovement[]> {
  const transactions: Stripe.BalanceTransaction[] = [];
  try {
    const list = stripe.balanceTransactions.list({
      currency: query.currency.toLowerCase(),
      created: { gte: unixSeconds(query.from), lt: unixSeconds(query.to) },
      limit: PAGE_SIZE,
      expand: ['data.source'],
    });
    // Page after page; a range that holds more than the bound is refused, never answered in part.
    for await (const transaction of list) {
      if (transactions.length === MAX_BALANCE_MOVEMENTS_PER_QUERY) {
        throw new Error(
          `Stripe lists more than ${MAX_BALANCE_MOVEMENTS_PER_QUERY} balance transactions for ${query.currency} in one range`,
        );
      }
      transactions.push(transaction);
    }
  } catch (error) {
    throw stripeCallError('balanceTransactions.list', error);
  }
  return transactions.map(toMovement).reverse();
}

function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

function toMovement(transaction: Stripe.BalanceTransaction): ProcessorBalanceMovement {
  const currency = transaction.currency.toUpperCase();
  if (!isFiatCurrency(currency)) throw new Error(`Stripe balance transaction ${transaction.id} is in ${currency}, unknown to peerpay`);
  return {
    ref: transaction.id,
    type: transaction.type,
    category: transaction.reporting_category,
    currency,
    amountMinor: BigInt(transaction.amount),
    processorFeeMinor: BigInt(transaction.fee),
    createdAt: new Date(transaction.created * 1000),
    sourceRef: sourceRefOf(transaction),
  };
}

/** A charge's PaymentIntent; any other source's own id. */
function sourceRefOf(transaction: Stripe.BalanceTransaction): string {
  const source = transaction.source;
  if (source !== null && typeof source === 'object' && source.object === 'charge') {
    return idOf(source.payment_intent) ?? source.id;
  }
  return idOf(source) ?? '';
}
