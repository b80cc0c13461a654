// A processor-hosted setup finished (Stripe Checkout in setup mode, Connect onboarding): record the
// instrument it saved for the account. Both the webhook and the reconciliation job come here, in a
// transaction of their own; whichever comes second finds the link used and changes nothing.
import type { Trx } from '../db/transaction.js';
import type { InstrumentKind } from '../adapters/processor/payment-processor.js';
import { completeLinkByProcessor, findOpenLinkByProcessorRef } from '../links/links-repository.js';
import { lockCustomerByPayoutAccount, setInstrumentRef } from './processor-customers-repository.js';
import { SETUP_LINK_RULES, isSetupPurpose } from './setup-links-service.js';
import { recordLinkCompleted } from '../links/link-events.js';

const SESSION_PURPOSES = ['card-setup', 'bank-debit-setup'] as const;

/** A card or bank-debit setup session completed; false when no open link names it (already recorded). */
export async function recordSetupCompleted(trx: Trx, input: { sessionRef: string; instrumentRef: string; now: Date }): Promise<boolean> {
  const link = await findOpenLinkByProcessorRef(trx, { processorRef: input.sessionRef, purposes: SESSION_PURPOSES });
  if (!link || !isSetupPurpose(link.purpose)) return false;
  if (!(await completeLinkByProcessor(trx, { id: link.id, now: input.now }))) return false;
  await setInstrumentRef(trx, { accountId: link.accountId, kind: kindOf(link.purpose), ref: input.instrumentRef });
  await recordLinkCompleted(trx, {
    accountId: link.accountId,
    linkId: link.id,
    kind: kindOf(link.purpose),
    outcome: 'succeed',
    now: input.now,
  });
  return true;
}

/** The payout account can receive payouts now; false when it belongs to no account or was recorded already. */
export async function recordPayoutAccountReady(trx: Trx, input: { payoutAccountRef: string; now: Date }): Promise<boolean> {
  const customer = await lockCustomerByPayoutAccount(trx, input.payoutAccountRef);
  if (!customer || customer.payoutRef === input.payoutAccountRef) return false;
  await setInstrumentRef(trx, { accountId: customer.accountId, kind: 'payout', ref: input.payoutAccountRef });
  // The open onboarding link (if any) is done with.
  const link = await findOpenLinkByProcessorRef(trx, { processorRef: input.payoutAccountRef, purposes: ['payout-setup'] });
  if (link && (await completeLinkByProcessor(trx, { id: link.id, now: input.now }))) {
    await recordLinkCompleted(trx, { accountId: customer.accountId, linkId: link.id, kind: 'payout', outcome: 'succeed', now: input.now });
  }
  return true;
}

function kindOf(purpose: keyof typeof SETUP_LINK_RULES): InstrumentKind {
  return SETUP_LINK_RULES[purpose].kind;
}
