// Connect Express accounts and their onboarding links. An account can receive transfers only once
// onboarding is complete (payouts enabled, transfers capability active); completing it emits
// `account.updated`, which is what makes a peerpay user payout-ready.
import { noSuch, parameterError } from '../errors.js';
import { newId, randomToken } from '../ids.js';
import { boolean, hash, metadata, readParams, required, string } from '../params.js';
import { defineRoute } from '../routes.js';
import { type Context, snapshot, unixSeconds } from '../store.js';

type CapabilityStatus = 'inactive' | 'pending' | 'active';

export interface Account {
  id: string;
  object: 'account';
  type: 'express';
  email: string | null;
  country: string;
  default_currency: string;
  payouts_enabled: boolean;
  charges_enabled: boolean;
  details_submitted: boolean;
  capabilities: { transfers?: CapabilityStatus; card_payments?: CapabilityStatus };
  requirements: { currently_due: string[]; disabled_reason: string | null };
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface AccountLink {
  object: 'account_link';
  url: string;
  created: number;
  expires_at: number;
}

/** What the stand-in remembers about an onboarding link, by the token in its URL. */
export interface AccountLinkRecord {
  token: string;
  account: string;
  type: 'account_onboarding' | 'account_update';
  refresh_url: string;
  return_url: string;
  expires_at: number;
  used: boolean;
}

const LINK_LIFETIME = 300;
const DUE_BEFORE_ONBOARDING = ['business_type', 'external_account', 'individual.first_name', 'individual.last_name', 'tos_acceptance.date'];

const capabilityRequest = hash({ requested: boolean() });

const createSpec = {
  type: string({ oneOf: ['standard', 'express', 'custom'] }),
  email: string({ maxLength: 512 }),
  country: string(),
  capabilities: hash({ transfers: capabilityRequest, card_payments: capabilityRequest }),
  metadata: metadata(),
};

const linkSpec = {
  account: required(string()),
  type: required(string({ oneOf: ['account_onboarding', 'account_update'] })),
  refresh_url: required(string({ maxLength: 5000 })),
  return_url: required(string({ maxLength: 5000 })),
};

export const accountRoutes = [
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/accounts$/,
    validate(params) {
      const input = readParams(createSpec, params);
      if (input.type !== undefined && input.type !== 'express')
        throw parameterError(`The Stripe stand-in serves type=express accounts only (got ${input.type}).`, { param: 'type' });
      return input;
    },
    execute(input, ctx) {
      const capabilities: Account['capabilities'] = {};
      if (input.capabilities?.transfers?.requested === true) capabilities.transfers = 'inactive';
      if (input.capabilities?.card_payments?.requested === true) capabilities.card_payments = 'inactive';
      const account: Account = {
        id: newId('acct', 16),
        object: 'account',
        type: 'express',
        email: input.email ?? null,
        country: input.country ?? 'US',
        default_currency: 'usd',
        payouts_enabled: false,
        charges_enabled: false,
        details_submitted: false,
        capabilities,
        requirements: { currently_due: [...DUE_BEFORE_ONBOARDING], disabled_reason: 'requirements.past_due' },
        metadata: input.metadata ?? {},
        created: unixSeconds(ctx.clock),
        livemode: false,
      };
      ctx.store.accounts.set(account.id, account);
      return snapshot(account);
    },
  }),
  defineRoute({
    method: 'GET',
    pattern: /^\/v1\/accounts\/(?<id>[^/]+)$/,
    validate: (params, id) => ({ ...readParams({}, params), id: id ?? '' }),
    execute(input, ctx) {
      const account = ctx.store.accounts.get(input.id);
      if (account === undefined) throw noSuch('account', input.id, 'account', 404);
      return snapshot(account);
    },
  }),
  defineRoute({
    method: 'POST',
    pattern: /^\/v1\/account_links$/,
    validate: (params) => readParams(linkSpec, params),
    execute(input, ctx): AccountLink {
      if (!ctx.store.accounts.has(input.account)) throw noSuch('account', input.account, 'account', 400);
      const created = unixSeconds(ctx.clock);
      const token = randomToken(32);
      ctx.store.accountLinks.set(token, {
        token,
        account: input.account,
        type: input.type,
        refresh_url: input.refresh_url,
        return_url: input.return_url,
        expires_at: created + LINK_LIFETIME,
        used: false,
      });
      return { object: 'account_link', url: `${ctx.apiBase}/connect/onboarding/${token}`, created, expires_at: created + LINK_LIFETIME };
    },
  }),
];

/** Onboarding finished: payouts enabled, requested capabilities active, `account.updated` emitted. */
export function completeOnboarding(ctx: Context, accountId: string): Account {
  const account = ctx.store.accounts.get(accountId);
  if (account === undefined) throw new Error(`Stripe stand-in: no account ${accountId}`);
  const previous = {
    payouts_enabled: account.payouts_enabled,
    charges_enabled: account.charges_enabled,
    details_submitted: account.details_submitted,
    capabilities: { ...account.capabilities },
    requirements: snapshot(account.requirements),
  };
  account.details_submitted = true;
  account.payouts_enabled = true;
  if (account.capabilities.transfers !== undefined) account.capabilities.transfers = 'active';
  if (account.capabilities.card_payments !== undefined) {
    account.capabilities.card_payments = 'active';
    account.charges_enabled = true;
  }
  account.requirements = { currently_due: [], disabled_reason: null };
  ctx.emit('account.updated', account, previous);
  return snapshot(account);
}

/** Whether Stripe would let a transfer land in this account. */
export function canReceiveTransfers(account: Account): boolean {
  return account.payouts_enabled && account.capabilities.transfers === 'active';
}
