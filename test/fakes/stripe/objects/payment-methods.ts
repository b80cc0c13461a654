// Saved payment methods and mandates. Stripe's test payment method tokens (pm_card_visa, …) decide
// how later charges behave; the stand-in records that behaviour next to the payment method it saves
// when a test completes a checkout session.
import { newId } from '../ids.js';
import { type Context, unixSeconds } from '../store.js';

export const TEST_PAYMENT_METHODS = [
  'pm_card_visa',
  'pm_card_chargeDeclined',
  // Real Stripe lets this card be saved and declines charges to it; the stand-in treats it like
  // pm_card_chargeDeclined (whose card real Stripe already declines while saving it).
  'pm_card_chargeCustomerFail',
  'pm_card_authenticationRequired',
  'pm_usBankAccount_success',
  'pm_usBankAccount_insufficientFunds',
] as const;

export type TestPaymentMethod = (typeof TEST_PAYMENT_METHODS)[number];
export type PaymentMethodType = 'card' | 'us_bank_account';

export function isTestPaymentMethod(value: string): value is TestPaymentMethod {
  return (TEST_PAYMENT_METHODS as readonly string[]).includes(value);
}

export function typeOf(behaviour: TestPaymentMethod): PaymentMethodType {
  return behaviour.startsWith('pm_usBankAccount_') ? 'us_bank_account' : 'card';
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: PaymentMethodType;
  customer: string | null;
  created: number;
  livemode: false;
  metadata: Record<string, string>;
  billing_details: { email: string | null; name: string | null };
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string; country: string } | null;
  us_bank_account: {
    bank_name: string;
    last4: string;
    routing_number: string;
    account_type: 'checking';
    account_holder_type: 'individual';
  } | null;
}

export interface Mandate {
  id: string;
  object: 'mandate';
  payment_method: string;
  status: 'active';
  type: 'multi_use';
  customer_acceptance: { type: 'online'; accepted_at: number };
  livemode: false;
}

const LAST4: Record<TestPaymentMethod, string> = {
  pm_card_visa: '4242',
  pm_card_chargeDeclined: '0002',
  pm_card_chargeCustomerFail: '0341',
  pm_card_authenticationRequired: '3184',
  pm_usBankAccount_success: '6789',
  pm_usBankAccount_insufficientFunds: '1116',
};

/** Saves a payment method for `customer` that behaves as `behaviour`; bank accounts also get a mandate. */
export function savePaymentMethod(
  ctx: Context,
  customer: string | null,
  behaviour: TestPaymentMethod,
  email: string | null,
): { paymentMethod: PaymentMethod; mandate: Mandate | null } {
  const now = unixSeconds(ctx.clock);
  const type = typeOf(behaviour);
  const paymentMethod: PaymentMethod = {
    id: newId('pm'),
    object: 'payment_method',
    type,
    customer,
    created: now,
    livemode: false,
    metadata: {},
    billing_details: { email, name: null },
    card:
      type === 'card'
        ? {
            brand: 'visa',
            last4: LAST4[behaviour],
            exp_month: 12,
            exp_year: new Date(ctx.clock.now()).getUTCFullYear() + 3,
            funding: 'credit',
            country: 'US',
          }
        : null,
    us_bank_account:
      type === 'us_bank_account'
        ? {
            bank_name: 'STRIPE TEST BANK',
            last4: LAST4[behaviour],
            routing_number: '110000000',
            account_type: 'checking',
            account_holder_type: 'individual',
          }
        : null,
  };
  ctx.store.paymentMethods.set(paymentMethod.id, paymentMethod);
  ctx.store.behaviours.set(paymentMethod.id, behaviour);
  let mandate: Mandate | null = null;
  if (type === 'us_bank_account') {
    mandate = {
      id: newId('mandate'),
      object: 'mandate',
      payment_method: paymentMethod.id,
      status: 'active',
      type: 'multi_use',
      customer_acceptance: { type: 'online', accepted_at: now },
      livemode: false,
    };
    ctx.store.mandates.set(mandate.id, mandate);
  }
  return { paymentMethod, mandate };
}
