// Where the Stripe contract scenarios run: the stand-in (always), or Stripe's real test mode when
// STRIPE_CONTRACT_SECRET_KEY names a test secret key. A target says how to reach the API and how to
// get what the API alone cannot make (a card saved for a customer, which on Stripe takes a browser).
import Stripe from 'stripe';
import { startStripeStandIn, type StripeStandIn, type TestPaymentMethod } from '../fakes/stripe/index.js';

export type SavedCard = 'succeeds' | 'declines' | 'needsAuthentication';

export interface ContractTarget {
  name: string;
  /** Where raw HTTP requests go: 'https://api.stripe.com' or the stand-in's base. */
  apiBase: string;
  secretKey: string;
  /** The official client, configured for this target, without automatic retries. */
  client(options?: { secretKey?: string; timeoutMs?: number }): Stripe;
  /** The id of a card saved for `customer` whose off-session charges behave as named. */
  savedCard(customer: string, behaviour: SavedCard): Promise<string>;
  close(): Promise<void>;
}

export const STAND_IN_SECRET_KEY = 'sk_test_standin_4eC39HqLyjWDarjtT1zdp7dc';
export const STAND_IN_OTHER_KEY = 'sk_test_standin_other_9fK2mQ7xLp3vW8rT';
export const STAND_IN_WEBHOOK_SECRET = 'whsec_standin_contract_0123456789abcdef';

const STAND_IN_CARDS: Record<SavedCard, TestPaymentMethod> = {
  succeeds: 'pm_card_visa',
  declines: 'pm_card_chargeDeclined',
  needsAuthentication: 'pm_card_authenticationRequired',
};

export async function standInTarget(): Promise<{ target: ContractTarget; standIn: StripeStandIn }> {
  const standIn = await startStripeStandIn({
    secretKey: STAND_IN_SECRET_KEY,
    extraSecretKeys: [STAND_IN_OTHER_KEY],
    webhookSecret: STAND_IN_WEBHOOK_SECRET,
    webhookMode: 'manual',
  });
  const target: ContractTarget = {
    name: 'stand-in',
    apiBase: standIn.apiBase,
    secretKey: STAND_IN_SECRET_KEY,
    // Configured the way peerpay configures it from STRIPE_API_BASE: protocol, host, port.
    client: (options = {}) => {
      const base = new URL(standIn.apiBase);
      return new Stripe(options.secretKey ?? STAND_IN_SECRET_KEY, {
        host: base.hostname,
        port: Number(base.port),
        protocol: base.protocol === 'https:' ? 'https' : 'http',
        maxNetworkRetries: 0,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      });
    },
    // The way a customer saves a card: a setup-mode Checkout Session, completed.
    savedCard: async (customer, behaviour) => {
      const session = await target.client().checkout.sessions.create({
        mode: 'setup',
        payment_method_types: ['card'],
        customer,
        success_url: 'https://peerpay.test/done',
      });
      return standIn.completeCheckoutSession(session.id, { paymentMethod: STAND_IN_CARDS[behaviour] }).paymentMethod.id;
    },
    close: () => standIn.close(),
  };
  return { target, standIn };
}

/**
 * Real test mode. Saving a card there takes Stripe's test tokens attached through an endpoint the
 * stand-in does not serve (peerpay never calls it); 4000000000000341 is the card Stripe lets you save
 * and then declines, since its generic-decline card is already refused while being saved.
 */
const REAL_CARDS: Record<SavedCard, string> = {
  succeeds: 'pm_card_visa',
  declines: 'pm_card_chargeCustomerFail',
  needsAuthentication: 'pm_card_authenticationRequired',
};

export function realStripeTarget(secretKey: string): ContractTarget {
  const client = (options: { secretKey?: string; timeoutMs?: number } = {}) =>
    new Stripe(options.secretKey ?? secretKey, {
      maxNetworkRetries: 0,
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  return {
    name: 'Stripe test mode',
    apiBase: 'https://api.stripe.com',
    secretKey,
    client,
    savedCard: async (customer, behaviour) => (await client().paymentMethods.attach(REAL_CARDS[behaviour], { customer })).id,
    close: async () => {},
  };
}
