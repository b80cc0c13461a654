// The HTML of the sandbox setup pages (what will happen, and one button per outcome) and the page
// frame every link page shares. The pages ask
// for nothing sensitive (no card or bank numbers: in sandbox the buttons stand for what the user
// would enter on the processor's page) and load nothing from elsewhere.
import type { SetupOutcome, SetupPurpose } from '../../fiat/setup-links-service.js';
import { expiryText } from './expiry-text.js';

const TITLES: Record<SetupPurpose, string> = {
  'card-setup': 'Save a card',
  'bank-debit-setup': 'Allow bank debits',
  'payout-setup': 'Connect a payout account',
};

const EXPLANATIONS: Record<SetupPurpose, string> = {
  'card-setup': 'The card is kept by the payment processor and charged for the instant transfers this account sends, amount plus fee.',
  'bank-debit-setup':
    'This authorises debits from a bank account for the ACH transfers this account sends; each settles in 3 business days.',
  'payout-setup': 'Money this account receives is paid out to this payout account automatically.',
};

const BUTTONS: Record<SetupOutcome, { label: string; explains: string }> = {
  succeed: { label: 'Complete setup', explains: 'works normally' },
  decline: { label: 'Complete with a failing instrument', explains: 'every later charge or payout is declined' },
  return: { label: 'Complete with a returning bank account', explains: 'every later debit is returned at settlement' },
  cancel: { label: 'Cancel', explains: 'nothing is set up; the link is used up' },
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The page frame shared by every page peerpay serves for its links, in both modes; `style` adds CSS rules. */
export function layout(title: string, body: string, style = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · peerpay</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
button{display:block;width:100%;margin:.5rem 0;padding:.75rem;font-size:1rem;cursor:pointer}
.note{color:#555;font-size:.9rem}${style}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

export function setupPage(input: {
  purpose: SetupPurpose;
  handle: string;
  expiresAt: Date;
  now: Date;
  outcomes: readonly SetupOutcome[];
}): string {
  const buttons = input.outcomes
    .map((o) => `<button type="submit" name="outcome" value="${o}">${escapeHtml(BUTTONS[o].label)}</button>`)
    .join('\n');
  const legend = input.outcomes
    .map((o) => `<li><strong>${escapeHtml(BUTTONS[o].label)}</strong>: ${escapeHtml(BUTTONS[o].explains)}</li>`)
    .join('\n');
  return layout(
    TITLES[input.purpose],
    `<p>For peerpay account <strong>${escapeHtml(input.handle)}</strong>. ${escapeHtml(EXPLANATIONS[input.purpose])}</p>
<p class="note">Sandbox: no real card or bank details are used. Choose how the simulated instrument behaves:</p>
<ul class="note">${legend}</ul>
<form method="post">
${buttons}
</form>
<p class="note">This link works once and expires ${escapeHtml(expiryText(input.expiresAt, input.now))}.</p>`,
  );
}

export function completedPage(purpose: SetupPurpose, outcome: SetupOutcome): string {
  if (outcome === 'cancel') return layout('Cancelled', '<p>Nothing was set up. Ask for a new link to try again.</p>');
  return layout(
    'Done',
    `<p>${escapeHtml(TITLES[purpose])}: complete (${escapeHtml(BUTTONS[outcome].explains)}). You can close this page.</p>`,
  );
}

export function gonePage(state: 'used' | 'expired'): string {
  return layout(
    state === 'used' ? 'Link already used' : 'Link expired',
    `<p>This link ${state === 'used' ? 'has already been used' : 'has expired'}; nothing was changed. Ask for a new link.</p>`,
  );
}

export function notFoundPage(): string {
  return layout('Link not found', '<p>This link does not exist. Check that it was copied whole, or ask for a new link.</p>');
}

export function badOutcomePage(allowed: readonly string[]): string {
  return layout(
    'Not a choice on this page',
    `<p>Nothing was changed. The choices here are: ${allowed.map((o) => escapeHtml(o)).join(', ')}.</p>`,
  );
}
