// Live mode: the URLs a processor-hosted setup page sends the user back to (DESIGN §11). The link
// handed out is the processor's own page; these are its success, cancel and (for Connect
// onboarding) refresh addresses, under peerpay's link URL so that they name the link.
import { SETUP_PURPOSES } from '../../fiat/setup-links-service.js';
import type { SetupLinks } from '../../fiat/setup-links.js';
import { gonePage, notFoundPage } from '../views/setup-link-pages.js';
import { setupCancelledPage, setupReturnPage } from '../views/processor-return-pages.js';
import { sendPage } from '../views/html-reply.js';
import type { App } from '../types.js';

const params = { type: 'object', properties: { token: { type: 'string', maxLength: 200 } }, required: ['token'] } as const;

export async function processorLinkPagesRoutes(app: App, setupLinks: SetupLinks): Promise<void> {
  for (const purpose of SETUP_PURPOSES) {
    app.get(`/links/${purpose}/:token/return`, { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
      const { token } = request.params;
      const found = await setupLinks.inspect({ purpose, token });
      if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
      return sendPage(reply, 200, setupReturnPage(purpose, found.state === 'used'));
    });

    app.get(`/links/${purpose}/:token/cancel`, { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
      const { token } = request.params;
      const found = await setupLinks.inspect({ purpose, token });
      if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
      return sendPage(reply, 200, setupCancelledPage());
    });
  }

  // Connect onboarding pages are short-lived; the processor sends the user here for a fresh one.
  app.get('/links/payout-setup/:token/refresh', { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
    const { token } = request.params;
    const found = await setupLinks.inspect({ purpose: 'payout-setup', token });
    if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
    const fresh = found.state === 'open' ? await setupLinks.refreshPayoutOnboarding({ token }) : null;
    if (!fresh) return sendPage(reply, 410, gonePage(found.state === 'used' ? 'used' : 'expired'));
    return reply
      .code(303)
      .header('Location', fresh.url)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send();
  });
}
