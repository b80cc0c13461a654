// The pages behind the URLs the stand-in hands out: a Checkout page (one button per test payment
// method the session accepts) and a Connect onboarding page (one button). Their buttons do exactly
// what the in-process controls do, so a test may drive either the browser way or the direct way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseForm } from './form-params.js';
import { refreshExpiry } from './objects/checkout-sessions.js';
import { isTestPaymentMethod, TEST_PAYMENT_METHODS, type TestPaymentMethod, typeOf } from './objects/payment-methods.js';
import { type Context, unixSeconds } from './store.js';

export interface PageControls {
  completeCheckoutSession(sessionId: string, paymentMethod: TestPaymentMethod): void;
  completeOnboarding(accountId: string): void;
}

const LABELS: Record<TestPaymentMethod, string> = {
  pm_card_visa: 'Visa •••• 4242 (charges succeed)',
  pm_card_chargeDeclined: 'Visa •••• 0002 (charges are declined)',
  pm_card_chargeCustomerFail: 'Visa •••• 0341 (charges are declined)',
  pm_card_authenticationRequired: 'Visa •••• 3184 (charges need authentication)',
  pm_usBankAccount_success: 'Bank account •••• 6789 (debits succeed)',
  pm_usBankAccount_insufficientFunds: 'Bank account •••• 1116 (debits are returned: insufficient funds)',
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(title)}</h1>${body}</body></html>`,
  );
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-type': 'text/plain; charset=utf-8' });
  res.end(`See ${location}`);
}

/** Handles /checkout/<id> and /connect/onboarding/<token>; false when the path is neither. */
export function handlePage(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  body: string,
  ctx: Context,
  controls: PageControls,
): boolean {
  const checkout = /^\/checkout\/([^/]+)$/.exec(path);
  if (checkout?.[1] !== undefined) {
    checkoutPage(req, res, decodeURIComponent(checkout[1]), body, ctx, controls);
    return true;
  }
  const onboarding = /^\/connect\/onboarding\/([^/]+)$/.exec(path);
  if (onboarding?.[1] !== undefined) {
    onboardingPage(req, res, decodeURIComponent(onboarding[1]), ctx, controls);
    return true;
  }
  return false;
}

function checkoutPage(req: IncomingMessage, res: ServerResponse, id: string, body: string, ctx: Context, controls: PageControls): void {
  const session = ctx.store.checkoutSessions.get(id);
  if (session === undefined) return page(res, 404, 'Checkout session not found', '');
  refreshExpiry(ctx, session);
  if (session.status !== 'open') return page(res, 410, `This checkout session is ${session.status}`, '');
  if (req.method === 'POST') {
    const choice = parseForm(body).payment_method;
    if (typeof choice !== 'string' || !isTestPaymentMethod(choice) || !session.payment_method_types.includes(typeOf(choice))) {
      return page(res, 400, 'Choose one of the offered payment methods', '');
    }
    controls.completeCheckoutSession(id, choice);
    // Stripe fills in {CHECKOUT_SESSION_ID} in the success URL.
    return redirect(res, session.success_url.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(id)));
  }
  const buttons = TEST_PAYMENT_METHODS.filter((pm) => session.payment_method_types.includes(typeOf(pm)))
    .map((pm) => `<p><button type="submit" name="payment_method" value="${pm}">${escape(LABELS[pm])}</button></p>`)
    .join('');
  const cancel = session.cancel_url === null ? '' : `<p><a href="${escape(session.cancel_url)}">Cancel</a></p>`;
  page(
    res,
    200,
    'Set up a payment method (Stripe stand-in)',
    `<form method="post" action="/checkout/${encodeURIComponent(id)}">${buttons}</form>${cancel}`,
  );
}

function onboardingPage(req: IncomingMessage, res: ServerResponse, token: string, ctx: Context, controls: PageControls): void {
  const link = ctx.store.accountLinks.get(token);
  if (link === undefined) return page(res, 404, 'Onboarding link not found', '');
  // Account links are single-use and short-lived; Stripe sends a stale one to its refresh_url.
  if (link.used || unixSeconds(ctx.clock) >= link.expires_at) return redirect(res, link.refresh_url);
  if (req.method === 'POST') {
    link.used = true;
    controls.completeOnboarding(link.account);
    return redirect(res, link.return_url);
  }
  page(
    res,
    200,
    'Connect onboarding (Stripe stand-in)',
    `<form method="post" action="/connect/onboarding/${encodeURIComponent(token)}"><button type="submit">Complete onboarding</button></form>`,
  );
}
