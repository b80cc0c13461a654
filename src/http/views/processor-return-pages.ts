// The pages a processor-hosted setup (Stripe Checkout, Connect onboarding) sends the user back to.
// They say what happens next; the setup itself is recorded from the processor's webhook.
import type { SetupPurpose } from '../../fiat/setup-links-service.js';
import { escapeHtml, layout } from './setup-link-pages.js';

const DONE: Record<SetupPurpose, string> = {
  'card-setup':
    'Your card is saved with the payment processor. peerpay records it as soon as the processor confirms, usually within seconds; then instant transfers can be sent.',
  'bank-debit-setup':
    'Your bank debit authorisation is with the payment processor. peerpay records it as soon as the processor confirms; then ACH transfers can be sent.',
  'payout-setup':
    'Your payout account is with the payment processor. Once the processor has verified it, money you receive is paid out to it automatically.',
};

export function setupReturnPage(purpose: SetupPurpose, recorded: boolean): string {
  const status = recorded ? 'peerpay has recorded it.' : 'Waiting for the processor to confirm.';
  return layout('Thank you', `<p>${escapeHtml(DONE[purpose])}</p><p class="note">${escapeHtml(status)} You can close this page.</p>`);
}

export function setupCancelledPage(): string {
  return layout('Cancelled', '<p>Nothing was set up. Ask for a new link to try again.</p>');
}
