// The stand-in's whole state, in memory, plus what an endpoint or a test control needs while it
// changes that state: the clock, the stand-in's own base URL (for pages it links to), and a way to
// emit the webhook event that each state change produces.
import type { Account, AccountLinkRecord } from './objects/accounts.js';
import type { BalanceTransaction } from './objects/balance-transactions.js';
import type { Charge } from './objects/charges.js';
import type { Dispute, EarlyFraudWarning } from './objects/disputes.js';
import type { Refund } from './objects/refunds.js';
import type { CheckoutSession } from './objects/checkout-sessions.js';
import type { Customer } from './objects/customers.js';
import type { PaymentIntent } from './objects/payment-intents.js';
import type { Mandate, PaymentMethod, TestPaymentMethod } from './objects/payment-methods.js';
import type { SetupIntent } from './objects/setup-intents.js';
import type { Transfer, TransferReversal } from './objects/transfers.js';

export type EventType =
  | 'checkout.session.completed'
  | 'account.updated'
  | 'payment_intent.succeeded'
  | 'payment_intent.payment_failed'
  | 'payment_intent.processing'
  | 'refund.created'
  | 'refund.updated'
  | 'refund.failed'
  | 'charge.refunded'
  | 'charge.refund.updated'
  | 'charge.dispute.created'
  | 'charge.dispute.updated'
  | 'charge.dispute.closed'
  | 'charge.dispute.funds_withdrawn'
  | 'charge.dispute.funds_reinstated'
  | 'radar.early_fraud_warning.created';

export interface Clock {
  /** Milliseconds since the epoch; tests may substitute their own clock. */
  now(): number;
}

export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}

export class Store {
  readonly customers = new Map<string, Customer>();
  readonly paymentMethods = new Map<string, PaymentMethod>();
  /** Which test card or bank account each saved payment method behaves as. */
  readonly behaviours = new Map<string, TestPaymentMethod>();
  readonly mandates = new Map<string, Mandate>();
  readonly checkoutSessions = new Map<string, CheckoutSession>();
  readonly setupIntents = new Map<string, SetupIntent>();
  readonly accounts = new Map<string, Account>();
  /** Onboarding links by the token in their URL. */
  readonly accountLinks = new Map<string, AccountLinkRecord>();
  readonly paymentIntents = new Map<string, PaymentIntent>();
  readonly transfers = new Map<string, Transfer>();
  readonly transferReversals = new Map<string, TransferReversal>();
  readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<string, Refund>();
  readonly disputes = new Map<string, Dispute>();
  readonly earlyFraudWarnings = new Map<string, EarlyFraudWarning>();
  /** In the order they were made. */
  readonly balanceTransactions = new Map<string, BalanceTransaction>();

  /** Any stored API object by id, for `expand[]`. */
  byId(id: string): object | undefined {
    for (const map of [
      this.customers,
      this.paymentMethods,
      this.mandates,
      this.checkoutSessions,
      this.setupIntents,
      this.accounts,
      this.paymentIntents,
      this.transfers,
      this.transferReversals,
      this.charges,
      this.refunds,
      this.disputes,
      this.earlyFraudWarnings,
      this.balanceTransactions,
    ] as Map<string, object>[]) {
      const found = map.get(id);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

/** Who caused a change: an API request (its id and Idempotency-Key), or nothing for a test control. */
export interface RequestRef {
  id: string | null;
  idempotency_key: string | null;
}

export interface Context {
  store: Store;
  clock: Clock;
  /** 'http://127.0.0.1:<port>', where the stand-in's own pages live. */
  apiBase: string;
  emit(type: EventType, object: object, previousAttributes?: Record<string, unknown>): void;
}

/** A deep copy, so that what a test or an event holds never changes under it. */
export function snapshot<T>(value: T): T {
  return structuredClone(value);
}
