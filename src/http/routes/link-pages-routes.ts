// Sandbox mode: peerpay serves the setup pages that the payment processor would host (DESIGN §7).
// GET shows the page; POST with the form field `outcome` completes it, as the buttons do. A used or
// expired link answers 410 and changes nothing. The token is in the path, which the logs redact.
// The funding pages, served in both modes, are in funding-pages-routes.ts and share the helpers
// exported here.
import formbody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import { SETUP_PURPOSES, outcomesFor } from '../../fiat/setup-links-service.js';
import type { SetupLinks } from '../../fiat/setup-links.js';
import { badOutcomePage, completedPage, gonePage, notFoundPage, setupPage } from '../views/setup-link-pages.js';
import { sendPage } from '../views/html-reply.js';
import type { App } from '../types.js';
import type { Clock } from '../../platform/clock.js';

/** What these routes call, and the clock a page's time left is read from. */
export type LinkPagesRoutesServices = { setupLinks: SetupLinks; clock: Clock };

/** The outcome a submission asks for: the form field (or JSON member) `outcome`, `succeed` when absent. */
export function outcomeOf(body: unknown): string | null {
  if (body === undefined || body === null) return 'succeed';
  if (typeof body !== 'object' || Array.isArray(body)) return null;
  const outcome = (body as Record<string, unknown>).outcome;
  if (outcome === undefined || outcome === '') return 'succeed';
  return typeof outcome === 'string' ? outcome : null;
}

export async function linkPagesRoutes(app: App, { setupLinks, clock }: LinkPagesRoutesServices): Promise<void> {
  // Form posts are accepted by these pages only: the plugin is registered in this scope.
  await app.register(formbody);

  for (const purpose of SETUP_PURPOSES) {
    const path = `/links/${purpose}/:token`;
    const params = { type: 'object', properties: { token: { type: 'string', maxLength: 200 } }, required: ['token'] } as const;

    app.get(path, { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
      const { token } = request.params;
      const found = await setupLinks.inspect({ purpose, token });
      if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
      if (found.state !== 'open') return sendPage(reply, 410, gonePage(found.state));
      return sendPage(
        reply,
        200,
        setupPage({
          purpose,
          handle: found.handle,
          expiresAt: found.link.expiresAt,
          now: clock.now(),
          outcomes: outcomesFor(purpose),
        }),
      );
    });

    app.post(path, { config: { auth: 'public' }, schema: { hide: true, params } }, async (request, reply) => {
      const { token } = request.params;
      const outcome = outcomeOf(request.body);
      const result = await setupLinks.completeSandbox({ purpose, token, outcome: outcome ?? '' });
      if (result.state !== 'completed') return sendUnfinishedLink(reply, result);
      return sendPage(reply, 200, completedPage(purpose, result.outcome));
    });
  }
}

export type UnfinishedLink =
  { state: 'unknown' } | { state: 'used' | 'expired' } | { state: 'invalid_outcome'; allowed: readonly string[] };

/** The answers every kind of link gives when it was not completed: unknown 404, used or expired 410, bad outcome 400. */
export function sendUnfinishedLink(reply: FastifyReply, result: UnfinishedLink) {
  switch (result.state) {
    case 'unknown':
      return sendPage(reply, 404, notFoundPage());
    case 'used':
    case 'expired':
      return sendPage(reply, 410, gonePage(result.state));
    case 'invalid_outcome':
      return sendPage(reply, 400, badOutcomePage(result.allowed));
  }
}
