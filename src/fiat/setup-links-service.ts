// Setup links (DESIGN §7, §9): private, single-use, time-limited URLs on which a user sets up a
// card, a bank-debit mandate or a payout account at the processor. The token is 256-bit random and
// only its hash is stored; the link is checked against the service clock.
import type { InstrumentKind } from '../adapters/processor/payment-processor.js';
import { SANDBOX_BEHAVIOURS, type SandboxBehaviour } from '../adapters/processor/sandbox-processor.js';
import { newId, newToken, sha256Hex } from '../platform/ids.js';
import { assert } from '../platform/errors.js';
import { findAccountById } from '../accounts/accounts-repository.js';
import { humanDuration } from './durations.js';
import { ensureProcessorCustomer } from './processor-customers.js';
import { findProcessorCustomer, recordPayoutAccount, setInstrumentRef, type ProcessorCustomer } from './processor-customers-repository.js';
import { RECONCILE_AFTER_MS } from './reconciliation-timing.js';
import { callProcessor } from './processor-errors.js';
import { findLinkByTokenHash, insertLink, useLink, type LinkRow } from '../links/links-repository.js';
import { recordLinkCompleted } from '../links/link-events.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { SandboxProcessor } from '../adapters/processor/sandbox-processor.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export const SETUP_PURPOSES = ['card-setup', 'bank-debit-setup', 'payout-setup'] as const;
export type SetupPurpose = (typeof SETUP_PURPOSES)[number];

interface PurposeRule {
  kind: InstrumentKind;
  lifetimeMs: number;
}

/** Lifetimes from the contract: card and bank debit 24 hours, payout account about 10 minutes. */
export const SETUP_LINK_RULES: Record<SetupPurpose, PurposeRule> = {
  'card-setup': { kind: 'card', lifetimeMs: 24 * 3600 * 1000 },
  'bank-debit-setup': { kind: 'bank_debit', lifetimeMs: 24 * 3600 * 1000 },
  'payout-setup': { kind: 'payout', lifetimeMs: 10 * 60 * 1000 },
};

export type SetupOutcome = SandboxBehaviour | 'cancel';

/** The buttons a sandbox setup page offers: the instrument's behaviours, then cancel. */
export function outcomesFor(purpose: SetupPurpose): readonly SetupOutcome[] {
  return [...SANDBOX_BEHAVIOURS[SETUP_LINK_RULES[purpose].kind], 'cancel'];
}

export function isSetupPurpose(value: string): value is SetupPurpose {
  return (SETUP_PURPOSES as readonly string[]).includes(value);
}

/** Tokens are base62 of 32 random bytes; anything else cannot be a token and is not looked up. */
const TOKEN_SHAPE = /^[0-9A-Za-z]{43}$/;

export async function createSetupLink(
  deps: { db: Db; processor: PaymentProcessor; clock: Clock; config: Config },
  input: { accountId: number; purpose: SetupPurpose },
): Promise<{ url: string; expiresIn: string; expiresAt: Date }> {
  const rule = SETUP_LINK_RULES[input.purpose];
  const customer = await callProcessor(() => ensureProcessorCustomer(deps, input.accountId));
  const payoutAccountRef = rule.kind === 'payout' ? await callProcessor(() => ensurePayoutAccount(deps, customer)) : undefined;
  const token = newToken();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + rule.lifetimeMs);
  const linkId = newId('lnk');
  const session = await callProcessor(() =>
    deps.processor.createSetupSession({
      customerRef: customer.customerRef,
      kind: rule.kind,
      linkUrl: setupLinkUrl(deps.config.publicUrl, input.purpose, token),
      expiresAt,
      idempotencyKey: linkId,
      linkId,
      ...(payoutAccountRef ? { payoutAccountRef } : {}),
    }),
  );
  await insertLink(deps.db, {
    tokenHash: sha256Hex(token),
    accountId: input.accountId,
    purpose: input.purpose,
    payload: null,
    expiresAt,
    createdAt: now,
    // A processor-hosted page is confirmed by webhook; the reconciliation job reads it back if none comes.
    ...(session.completion === 'processor'
      ? { processor: { ref: session.sessionRef, reconcileAt: new Date(now.getTime() + RECONCILE_AFTER_MS) } }
      : {}),
  });
  return { url: session.url, expiresIn: humanDuration(rule.lifetimeMs), expiresAt };
}

function setupLinkUrl(publicUrl: string, purpose: SetupPurpose, token: string): string {
  return `${publicUrl}/links/${purpose}/${token}`;
}

/** The user's payout account at a processor that has them (Stripe Connect), made once; undefined elsewhere. */
async function ensurePayoutAccount(
  deps: { db: Db; processor: PaymentProcessor },
  customer: ProcessorCustomer,
): Promise<string | undefined> {
  if (!deps.processor.createPayoutAccount) return undefined;
  if (customer.payoutAccountRef) return customer.payoutAccountRef;
  const account = await findAccountById(deps.db, customer.accountId);
  assert(account, 'a processor customer belongs to an existing account');
  // No transaction is open during the call; the key makes two first calls at once name one account.
  const { payoutAccountRef } = await deps.processor.createPayoutAccount({
    accountId: account.id,
    email: account.email,
    idempotencyKey: `payout-account-${account.handle}`,
  });
  return recordPayoutAccount(deps.db, { accountId: account.id, payoutAccountRef });
}

/**
 * A processor's payout onboarding page ran out (Stripe sends the user to the refresh URL): a fresh
 * page for the same connected account, while peerpay's link is open. Null when the link is not open.
 */
export async function refreshPayoutOnboarding(
  deps: { db: Db; processor: PaymentProcessor; clock: Clock; config: Config },
  input: { token: string },
): Promise<{ url: string } | null> {
  const found = await inspectSetupLink(deps, { purpose: 'payout-setup', token: input.token });
  if (found.state !== 'open') return null;
  const customer = await findProcessorCustomer(deps.db, found.link.accountId);
  if (!customer?.payoutAccountRef) return null;
  const linkId = newId('lnk');
  const session = await deps.processor.createSetupSession({
    customerRef: customer.customerRef,
    kind: 'payout',
    linkUrl: setupLinkUrl(deps.config.publicUrl, 'payout-setup', input.token),
    expiresAt: found.link.expiresAt,
    idempotencyKey: linkId,
    linkId,
    payoutAccountRef: customer.payoutAccountRef,
  });
  return { url: session.url };
}

export type LinkState =
  { state: 'unknown' } | { state: 'used' | 'expired'; link: LinkRow } | { state: 'open'; link: LinkRow; handle: string };

/** What a setup link is now: unknown (also a token of another purpose), used, expired or open. */
export async function inspectSetupLink(
  deps: { db: Db; clock: Clock },
  input: { purpose: SetupPurpose; token: string },
): Promise<LinkState> {
  if (!TOKEN_SHAPE.test(input.token)) return { state: 'unknown' };
  const link = await findLinkByTokenHash(deps.db, sha256Hex(input.token));
  if (!link || link.purpose !== input.purpose) return { state: 'unknown' };
  if (link.usedAt !== null) return { state: 'used', link };
  if (link.expiresAt <= deps.clock.now()) return { state: 'expired', link };
  const owner = await findAccountById(deps.db, link.accountId);
  assert(owner, 'a link belongs to an existing account');
  return { state: 'open', link, handle: owner.handle };
}

export type CompletionResult =
  | { state: 'unknown' | 'used' | 'expired' }
  | { state: 'invalid_outcome'; allowed: readonly SetupOutcome[] }
  | { state: 'completed'; outcome: SetupOutcome };

/**
 * The user pressed a button on a sandbox setup page. The instrument is created at the sandbox
 * processor first (no transaction open), then the link is used and the instrument recorded in one
 * transaction; when two submissions race, one wins and the other's instrument is simply never
 * referenced.
 */
export async function completeSandboxSetupLink(
  deps: { db: Db; clock: Clock; sandboxProcessor: SandboxProcessor | null },
  input: { purpose: SetupPurpose; token: string; outcome: string },
): Promise<CompletionResult> {
  const found = await inspectSetupLink(deps, input);
  if (found.state !== 'open') return { state: found.state };
  const allowed = outcomesFor(input.purpose);
  const outcome = allowed.find((o) => o === input.outcome);
  if (outcome === undefined) return { state: 'invalid_outcome', allowed };
  const { link } = found;
  const kind = SETUP_LINK_RULES[input.purpose].kind;

  let instrumentRef: string | null = null;
  if (outcome !== 'cancel') {
    assert(deps.sandboxProcessor, 'setup pages are served only with the sandbox processor');
    const customer = await findProcessorCustomer(deps.db, link.accountId);
    assert(customer, 'a setup link is created after its processor customer');
    ({ instrumentRef } = await deps.sandboxProcessor.completeHostedSetup({ customerRef: customer.customerRef, kind, behaviour: outcome }));
  }
  const now = deps.clock.now();
  const used = await deps.db.transaction().execute(async (trx) => {
    if (!(await useLink(trx, { id: link.id, outcome, now }))) return false;
    if (instrumentRef !== null) {
      await setInstrumentRef(trx, { accountId: link.accountId, kind, ref: instrumentRef });
      await recordLinkCompleted(trx, { accountId: link.accountId, linkId: link.id, kind, outcome, now });
    }
    return true;
  });
  if (!used) return { state: link.expiresAt <= now ? 'expired' : 'used' };
  return { state: 'completed', outcome };
}
