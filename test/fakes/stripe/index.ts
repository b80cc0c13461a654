// The Stripe stand-in for tests: see README.md in this folder.
export { startStripeStandIn } from './stand-in.js';
export type { StripeStandIn, StripeStandInOptions } from './stand-in.js';
export type { FaultRule, Fault } from './faults.js';
export type { DeliverOptions, DeliveryAttempt, StripeEvent, WebhookMode } from './webhooks.js';
export type { RequestLogEntry } from './server.js';
export type { EventType } from './store.js';
export { TEST_PAYMENT_METHODS } from './objects/payment-methods.js';
export type { TestPaymentMethod, PaymentMethod, Mandate } from './objects/payment-methods.js';
export type { Customer } from './objects/customers.js';
export type { CheckoutSession, CompletedSetup } from './objects/checkout-sessions.js';
export type { SetupIntent } from './objects/setup-intents.js';
export type { Account, AccountLink } from './objects/accounts.js';
export type { PaymentIntent } from './objects/payment-intents.js';
export type { Transfer } from './objects/transfers.js';
export { startWebhookReceiver } from './webhook-receiver.js';
export type { WebhookReceiver, ReceivedWebhook } from './webhook-receiver.js';
