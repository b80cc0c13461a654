// The HTML of the sandbox funding page (POST /stablecoin/buy-session): what will happen, and a
// button per outcome. In sandbox mode no payment is taken; the button stands for the card or
// exchange payment the wallet provider's page would take.
import type { FundingOrder, FundingOutcome } from '../../stablecoin/funding/funding-links-service.js';
import { formatMinorTrimmed } from '../../money/amount.js';
import { escapeHtml, layout } from './setup-link-pages.js';

const BUTTONS: Record<FundingOutcome, { label: string; explains: string }> = {
  succeed: { label: 'Pay and add the tokens', explains: 'test tokens are minted to your deposit address and credited once the chain has confirmed them' },
  cancel: { label: 'Cancel', explains: 'nothing is added; the link is used up' },
};

function amountText(order: FundingOrder): string {
  return `${formatMinorTrimmed(order.amountMinor, order.token)} ${order.token}`;
}

export function fundingPage(input: { handle: string; order: FundingOrder; depositAddress: string; expiresAt: Date; outcomes: readonly FundingOutcome[] }): string {
  const buttons = input.outcomes.map((o) => `<button type="submit" name="outcome" value="${o}">${escapeHtml(BUTTONS[o].label)}</button>`).join('\n');
  const legend = input.outcomes.map((o) => `<li><strong>${escapeHtml(BUTTONS[o].label)}</strong>: ${escapeHtml(BUTTONS[o].explains)}</li>`).join('\n');
  return layout(
    `Add ${amountText(input.order)}`,
    `<p>For peerpay account <strong>${escapeHtml(input.handle)}</strong>: ${escapeHtml(amountText(input.order))} on Polygon, to deposit address <code>${escapeHtml(input.depositAddress)}</code>.</p>
<p class="note">Sandbox: no payment is taken and the tokens are test tokens on the embedded chain.</p>
<ul class="note">${legend}</ul>
<form method="post">
${buttons}
</form>
<p class="note">This link works once and expires at ${escapeHtml(input.expiresAt.toISOString())}.</p>`,
  );
}

export function fundingDonePage(input: { outcome: 'cancel' } | { outcome: 'succeed'; order: FundingOrder; txHash: string }): string {
  if (input.outcome === 'cancel') return layout('Cancelled', '<p>Nothing was added. Ask for a new link to try again.</p>');
  return layout(
    'Done',
    `<p>${escapeHtml(amountText(input.order))} were sent to your deposit address (transaction <code>${escapeHtml(input.txHash)}</code>). Your balance shows them as soon as the chain has confirmed the transaction. You can close this page.</p>`,
  );
}

export function fundingFailedPage(order: FundingOrder): string {
  return layout(
    'Could not add the tokens',
    `<p>Sending ${escapeHtml(amountText(order))} to your deposit address failed, and this link is used up. If the transaction reached the chain after all, your balance shows it shortly; otherwise ask for a new link.</p>`,
  );
}
