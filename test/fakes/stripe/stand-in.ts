// startStripeStandIn: the state, the HTTP server, the webhook sender and the test controls, put
// together. Everything a test asserts on is returned as a copy.
import Stripe from 'stripe';
import { type FaultRule, FaultPlan } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import { accountRoutes, completeOnboarding } from './objects/accounts.js';
import type { Account } from './objects/accounts.js';
import {
  checkoutSessionRoutes,
  type CheckoutSession,
  type CompletedSetup,
  completeCheckoutSession,
  expireCheckoutSession,
} from './objects/checkout-sessions.js';
import { type Customer, customerRoutes } from './objects/customers.js';
import { type PaymentIntent, paymentIntentRoutes, settleBankDebits } from './objects/payment-intents.js';
import type { Mandate, PaymentMethod, TestPaymentMethod } from './objects/payment-methods.js';
import { type SetupIntent, setupIntentRoutes } from './objects/setup-intents.js';
import { type Transfer, type TransferReversal, transferRoutes } from './objects/transfers.js';
import { type BalanceTransaction, balanceTransactionRoutes } from './objects/balance-transactions.js';
import { type Charge, chargeRoutes } from './objects/charges.js';
import {
  closeDispute,
  type Dispute,
  type EarlyFraudWarning,
  earlyFraudWarning,
  openDispute,
  type OpenDisputeOptions,
  submitDisputeEvidence,
} from './objects/disputes.js';
import {
  failRefund,
  type Refund,
  type RefundFailureReason,
  type RefundReason,
  refundFromDashboard,
  refundRoutes,
} from './objects/refunds.js';
import { type RequestLogEntry, startServer } from './server.js';
import { type Clock, type Context, type EventType, type RequestRef, snapshot, Store } from './store.js';
import { type DeliverOptions, type DeliveryAttempt, signatureHeader, type StripeEvent, type WebhookMode, Webhooks } from './webhooks.js';

export interface StripeStandInOptions {
  /** The secret key peerpay is configured with (STRIPE_SECRET_KEY). */
  secretKey: string;
  /** Further keys accepted; each has its own idempotency keys (objects are shared). */
  extraSecretKeys?: string[];
  /** The endpoint secret events are signed with (STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
  webhookUrl?: string;
  /** 'auto' (default): delivered right after each change; 'manual': queued for the test to deliver. */
  webhookMode?: WebhookMode;
  /** Auto mode: further attempts after a failed delivery (default 3), this far apart (default 50 ms). */
  webhookRetries?: number;
  webhookRetryDelayMs?: number;
  /** How long a delivery waits for the receiver's answer (default 5000 ms). */
  webhookTimeoutMs?: number;
  /** Milliseconds since the epoch; defaults to Date.now. Stamps `created`, expiries and signatures. */
  now?: () => number;
  /** Loopback port to listen on; 0 (default) picks a free one. */
  port?: number;
}

export interface StripeStandIn {
  /** 'http://127.0.0.1:<port>': what peerpay's STRIPE_API_BASE is set to. */
  readonly apiBase: string;
  readonly host: string;
  readonly port: number;
  readonly protocol: 'http';
  /** `new Stripe(key, { ...standIn.clientConfig(), maxNetworkRetries: 0 })`. */
  clientConfig(): { host: string; port: number; protocol: 'http' };

  setWebhookUrl(url: string | null): void;
  setWebhookMode(mode: WebhookMode): void;

  completeCheckoutSession(sessionId: string, options: { paymentMethod: TestPaymentMethod }): CompletedSetup;
  expireCheckoutSession(sessionId: string): CheckoutSession;
  completeOnboarding(accountId: string): Account;
  /** Settles processing us_bank_account PaymentIntents (all, or the ids given); returns the ids settled. */
  settleBankDebits(ids?: readonly string[]): string[];
  /** A refund made in Stripe's dashboard: refund.created and charge.refunded, no peerpay metadata. */
  refundFromDashboard(paymentIntentId: string, options?: { amount?: number; reason?: RefundReason }): Refund;
  /** A refund that fails after it was made: refund.updated, charge.refund.updated, refund.failed. */
  failRefund(refundId: string, reason?: RefundFailureReason): Refund;
  /** The cardholder disputes a charge: charge.dispute.created (+ funds_withdrawn with the 15.00 fee). */
  openDispute(paymentIntentId: string, options?: OpenDisputeOptions): Dispute;
  /** Evidence submitted: under_review, charge.dispute.updated. */
  submitDisputeEvidence(disputeId: string): Dispute;
  /** The network decides: charge.dispute.closed (won: after funds_reinstated). */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Dispute;
  /** The issuer warns of fraud: radar.early_fraud_warning.created. */
  earlyFraudWarning(paymentIntentId: string, options?: { fraudType?: string; namePaymentIntent?: boolean }): EarlyFraudWarning;

  failNext(rule: FaultRule): void;
  clearFaults(): void;
  /** Fault rules set but not yet used up. */
  pendingFaults(): FaultRule[];

  events(type?: EventType): StripeEvent[];
  pendingWebhooks(): StripeEvent[];
  deliver(eventId: string, options?: DeliverOptions): Promise<DeliveryAttempt[]>;
  deliverAll(options?: { order?: 'created' | 'reverse' } & Omit<DeliverOptions, 'times'>): Promise<DeliveryAttempt[]>;
  webhookAttempts(eventId?: string): DeliveryAttempt[];
  /** Resolves when no automatic delivery or retry is running or waiting. */
  webhooksIdle(): Promise<void>;
  /** The exact JSON body of an event as delivered. */
  eventPayload(eventId: string): string;
  /** A Stripe-Signature header for any payload (by default with the webhook secret, now). */
  signPayload(payload: string, options?: { secret?: string; timestamp?: number }): string;

  customers(): Customer[];
  checkoutSessions(): CheckoutSession[];
  setupIntents(): SetupIntent[];
  paymentMethods(): PaymentMethod[];
  mandates(): Mandate[];
  accounts(): Account[];
  paymentIntents(): PaymentIntent[];
  transfers(): Transfer[];
  transferReversals(): TransferReversal[];
  charges(): Charge[];
  refunds(): Refund[];
  disputes(): Dispute[];
  earlyFraudWarnings(): EarlyFraudWarning[];
  /** In the order they were made (the API lists them newest first). */
  balanceTransactions(): BalanceTransaction[];
  requests(): RequestLogEntry[];

  close(): Promise<void>;
}

const HOST = '127.0.0.1';

function values<T>(map: Map<string, T>): T[] {
  return [...map.values()].map((v) => snapshot(v));
}

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const clock: Clock = { now: options.now ?? (() => Date.now()) };
  const store = new Store();
  const faults = new FaultPlan();
  const log: RequestLogEntry[] = [];
  const webhooks = new Webhooks({
    secret: options.webhookSecret,
    url: options.webhookUrl ?? null,
    mode: options.webhookMode ?? 'auto',
    apiVersion: Stripe.API_VERSION,
    clock,
    retries: options.webhookRetries ?? 3,
    retryDelayMs: options.webhookRetryDelayMs ?? 50,
    timeoutMs: options.webhookTimeoutMs ?? 5000,
  });
  let apiBase = '';
  const context = (request: RequestRef | null): Context => ({
    store,
    clock,
    apiBase,
    emit: (type, object, previous) => {
      webhooks.emit(type, object, request ?? { id: null, idempotency_key: null }, previous);
    },
  });
  const controls = {
    completeCheckoutSession: (sessionId: string, paymentMethod: TestPaymentMethod) =>
      completeCheckoutSession(context(null), sessionId, paymentMethod),
    completeOnboarding: (accountId: string) => completeOnboarding(context(null), accountId),
  };

  const { server, port } = await startServer(
    {
      secretKeys: [options.secretKey, ...(options.extraSecretKeys ?? [])],
      apiVersion: Stripe.API_VERSION,
      routes: [
        ...customerRoutes,
        ...checkoutSessionRoutes,
        ...setupIntentRoutes,
        ...accountRoutes,
        ...paymentIntentRoutes,
        ...transferRoutes,
        ...chargeRoutes,
        ...refundRoutes,
        ...balanceTransactionRoutes,
      ],
      idempotency: new IdempotencyStore(clock),
      faults,
      log,
      context,
      pageControls: controls,
    },
    HOST,
    options.port ?? 0,
  );
  apiBase = `http://${HOST}:${port}`;

  return {
    apiBase,
    host: HOST,
    port,
    protocol: 'http',
    clientConfig: () => ({ host: HOST, port, protocol: 'http' }),
    setWebhookUrl: (url) => webhooks.setUrl(url),
    setWebhookMode: (mode) => webhooks.setMode(mode),
    completeCheckoutSession: (sessionId, { paymentMethod }) => controls.completeCheckoutSession(sessionId, paymentMethod),
    expireCheckoutSession: (sessionId) => expireCheckoutSession(context(null), sessionId),
    completeOnboarding: (accountId) => controls.completeOnboarding(accountId),
    settleBankDebits: (ids) => settleBankDebits(context(null), ids),
    refundFromDashboard: (paymentIntentId, opts) => refundFromDashboard(context(null), paymentIntentId, opts),
    failRefund: (refundId, reason) => failRefund(context(null), refundId, reason),
    openDispute: (paymentIntentId, opts) => openDispute(context(null), paymentIntentId, opts),
    submitDisputeEvidence: (disputeId) => submitDisputeEvidence(context(null), disputeId),
    closeDispute: (disputeId, outcome) => closeDispute(context(null), disputeId, outcome),
    earlyFraudWarning: (paymentIntentId, opts) => earlyFraudWarning(context(null), paymentIntentId, opts),
    failNext: (rule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    pendingFaults: () => faults.remaining(),
    events: (type) => webhooks.events(type),
    pendingWebhooks: () => webhooks.pending(),
    deliver: (eventId, opts) => webhooks.deliver(eventId, opts),
    deliverAll: (opts) => webhooks.deliverAll(opts),
    webhookAttempts: (eventId) => webhooks.attempts(eventId),
    webhooksIdle: () => webhooks.idle(),
    eventPayload: (eventId) => webhooks.payload(eventId),
    signPayload: (payload, opts = {}) =>
      signatureHeader(payload, opts.secret ?? options.webhookSecret, opts.timestamp ?? Math.floor(clock.now() / 1000)),
    customers: () => values(store.customers),
    checkoutSessions: () => values(store.checkoutSessions),
    setupIntents: () => values(store.setupIntents),
    paymentMethods: () => values(store.paymentMethods),
    mandates: () => values(store.mandates),
    accounts: () => values(store.accounts),
    paymentIntents: () => values(store.paymentIntents),
    transfers: () => values(store.transfers),
    transferReversals: () => values(store.transferReversals),
    charges: () => values(store.charges),
    refunds: () => values(store.refunds),
    disputes: () => values(store.disputes),
    earlyFraudWarnings: () => values(store.earlyFraudWarnings),
    balanceTransactions: () => values(store.balanceTransactions),
    requests: () => log.map((entry) => snapshot(entry)),
    close: async () => {
      webhooks.close();
      // Hung ('timeout') requests and keep-alive sockets would otherwise hold the server open.
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
