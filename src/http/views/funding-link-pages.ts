// The HTML of the funding pages (POST /stablecoin/buy-session). On the embedded sandbox chain: what
// will happen, and a button per outcome; no payment is taken, the button stands for the card or
// exchange payment the wallet provider's page would take. On any other chain (live mode): where to
// send the tokens from an exchange or a wallet, with a QR code of the deposit address, and no
// buttons; the deposit watcher credits what arrives.
import qrcode from 'qrcode-generator';
import type { FundingOrder, FundingOutcome } from '../../stablecoin/funding/funding-links-service.js';
import { formatMinorTrimmed } from '../../money/amount.js';
import { escapeHtml, layout } from './setup-link-pages.js';
import { expiryText } from './expiry-text.js';

const BUTTONS: Record<FundingOutcome, { label: string; explains: string }> = {
  succeed: {
    label: 'Pay and add the tokens',
    explains: 'test tokens are minted to your deposit address and credited once the chain has confirmed them',
  },
  cancel: { label: 'Cancel', explains: 'nothing is added; the link is used up' },
};

function amountText(order: FundingOrder): string {
  return `${formatMinorTrimmed(order.amountMinor, order.token)} ${order.token}`;
}

export function fundingPage(input: {
  handle: string;
  order: FundingOrder;
  depositAddress: string;
  expiresAt: Date;
  now: Date;
  outcomes: readonly FundingOutcome[];
}): string {
  const buttons = input.outcomes
    .map((o) => `<button type="submit" name="outcome" value="${o}">${escapeHtml(BUTTONS[o].label)}</button>`)
    .join('\n');
  const legend = input.outcomes
    .map((o) => `<li><strong>${escapeHtml(BUTTONS[o].label)}</strong>: ${escapeHtml(BUTTONS[o].explains)}</li>`)
    .join('\n');
  return layout(
    `Add ${amountText(input.order)}`,
    `<p>For peerpay account <strong>${escapeHtml(input.handle)}</strong>: ${escapeHtml(amountText(input.order))} on Polygon, to deposit address <code>${escapeHtml(input.depositAddress)}</code>.</p>
<p class="note">Sandbox: no payment is taken and the tokens are test tokens on the embedded chain.</p>
<ul class="note">${legend}</ul>
<form method="post">
${buttons}
</form>
<p class="note">This link works once and expires ${escapeHtml(expiryText(input.expiresAt, input.now))}.</p>`,
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

/** Networks that the deposit page names; another chain id is shown as a number. */
const NETWORK_NAMES: Record<number, string> = { 137: 'Polygon PoS', 80002: 'Polygon Amoy (testnet)' };

function networkName(chainId: number): string {
  return NETWORK_NAMES[chainId] ?? `EVM chain ${chainId}`;
}

/**
 * The QR code of `text` as inline SVG: one path of dark modules, with the quiet zone the standard
 * asks for. Inline markup needs nothing from elsewhere and no script, so the pages' CSP stays as
 * it is (default-src 'none').
 */
export function qrSvg(text: string, label: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  const quiet = 4;
  const size = count + 2 * quiet;
  let path = '';
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.isDark(row, col)) path += `M${col + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  return `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="240" height="240" shape-rendering="crispEdges" role="img" aria-label="${escapeHtml(label)}"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
}

export interface DepositFundingPageInput {
  handle: string;
  order: FundingOrder;
  depositAddress: string;
  tokenAddress: string;
  chainId: number;
  confirmations: number;
  expiresAt: Date;
  now: Date;
}

/**
 * The funding page on a chain where peerpay cannot mint (live mode, DESIGN §11): the user sends the
 * tokens themselves. The QR code holds the bare deposit address, not an EIP-681 payment URI
 * (`ethereum:<token>@137/transfer?address=<deposit>&uint256=<amount>`): exchanges' withdrawal
 * screens, the commonest place these tokens come from, scan addresses only, and a scanner that does
 * not understand EIP-681 but picks the first address out of the text would take the token
 * contract's address for the recipient and send the tokens there, where nobody can credit them. An
 * address is read the same way by every wallet and exchange; the token, network and amount, which
 * the user then chooses by hand, stand beside it on the page. The watcher credits whatever amount
 * arrives, so a different amount is credited as sent, not lost.
 */
export function depositFundingPage(input: DepositFundingPageInput): string {
  const amount = amountText(input.order);
  const network = `${networkName(input.chainId)} (chain id ${input.chainId})`;
  const confirmations =
    input.confirmations === 1 ? 'once the transfer is mined' : `once the transfer has ${input.confirmations} confirmations`;
  return pageLayout(
    `Add ${amount}`,
    `<p>For peerpay account <strong>${escapeHtml(input.handle)}</strong>: send <strong>${escapeHtml(amount)}</strong> to your deposit address on ${escapeHtml(networkName(input.chainId))}.</p>
<p>${qrSvg(input.depositAddress, `QR code of the deposit address ${input.depositAddress}`)}</p>
<dl>
<dt>Deposit address</dt><dd><code class="address">${escapeHtml(input.depositAddress)}</code></dd>
<dt>Network</dt><dd>${escapeHtml(network)}</dd>
<dt>Token</dt><dd>${escapeHtml(input.order.token)}, contract <code class="address">${escapeHtml(input.tokenAddress)}</code></dd>
<dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
<dt>Expires</dt><dd>${escapeHtml(expiryText(input.expiresAt, input.now))}</dd>
</dl>
<h2>How to send</h2>
<ol>
<li>From an exchange: choose to withdraw ${escapeHtml(input.order.token)}, pick the network ${escapeHtml(networkName(input.chainId))} (often listed as “Polygon” or “MATIC”), paste or scan the deposit address above, and enter the amount. Exchanges often deduct their withdrawal fee from it; what arrives is what is credited.</li>
<li>From a wallet: switch it to ${escapeHtml(networkName(input.chainId))}, choose ${escapeHtml(input.order.token)} at the contract shown above, and send the amount to the deposit address.</li>
</ol>
<p><strong>Send only ${escapeHtml(input.order.token)} at that contract, and only on ${escapeHtml(networkName(input.chainId))}.</strong> Other tokens (also bridged versions of ${escapeHtml(input.order.token)}) and transfers on other networks are not credited and may be lost.</p>
<p class="note">Your balance shows the tokens ${escapeHtml(confirmations)}. The deposit address is yours and does not change: tokens that arrive after this page has expired are credited too.</p>`,
  );
}

/** The deposit page needs room for the QR code and long addresses. */
function pageLayout(title: string, body: string): string {
  return layout(
    title,
    body,
    'dt{font-weight:600;margin-top:.5rem}dd{margin:0}.address{word-break:break-all}.qr{max-width:100%;height:auto}',
  );
}
