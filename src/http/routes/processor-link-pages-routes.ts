// Live mode: the URLs a processor-hosted setup page sends the user back to (DESIGN §11). The link
// handed out is the processor's own page; these are its success, cancel and (for Connect
// onboarding) refresh addresses, under peerpay's link URL so that they name the link.
import { SETUP_PURPOSES, inspectSetupLink, refreshPayoutOnboarding } from '../../fiat/setup-links-service.js';
import { gonePage, notFoundPage } from '../views/setup-link-pages.js';
import { setupCancelledPage, setupReturnPage } from '../views/processor-return-pages.js';
import { sendPage } from '../views/html-reply.js';
import type { App } from '../types.js';
import type { PaymentProcessor } from '../../adapters/processor/payment-processor.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

/** What these routes use: only these, not the whole composition root. */
export type ProcessorLinkPagesRoutesDeps = { clock: Clock; config: Config; db: Db; processor: PaymentProcessor };

const params = { type: 'object', properties: { token: { type: 'string', maxLength: 200 } }, required: ['token'] } as const;

export async function processorLinkPagesRoutes(app: App, deps: ProcessorLinkPagesRoutesDeps): Promise<void> {
  for (const purpose of SETUP_PURPOSES) {
    app.get(`/links/${purpose}/:token/return`, { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
      const { token } = request.params;
      const found = await inspectSetupLink(deps, { purpose, token });
      if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
      return sendPage(reply, 200, setupReturnPage(purpose, found.state === 'used'));
    });

    app.get(`/links/${purpose}/:token/cancel`, { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
      const { token } = request.params;
      const found = await inspectSetupLink(deps, { purpose, token });
      if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
      return sendPage(reply, 200, setupCancelledPage());
    });
  }

  // Connect onboarding pages are short-lived; the processor sends the user here for a fresh one.
  app.get('/links/payout-setup/:token/refresh', { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
    const { token } = request.params;
    const found = await inspectSetupLink(deps, { purpose: 'payout-setup', token });
    if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
    const fresh = found.state === 'open' ? await refreshPayoutOnboarding(deps, { token }) : null;
    if (!fresh) return sendPage(reply, 410, gonePage(found.state === 'used' ? 'used' : 'expired'));
    return reply
      .code(303)
      .header('Location', fresh.url)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send();
  });
}
