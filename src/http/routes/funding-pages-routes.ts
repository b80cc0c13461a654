// The funding link pages (POST /stablecoin/buy-session hands out their URLs), served by peerpay at
// PUBLIC_URL in both modes (DESIGN §7, §11). The token is in the path, which the logs redact.
//
// - On the embedded sandbox chain: GET shows the sandbox page with its buttons; POST with the form
//   field `outcome` completes it, minting test tokens to the user's deposit address.
// - On any other chain (live mode on Polygon, or a sandbox pointed at an external node): GET only.
//   The page shows the deposit address (text and QR code), network, token, amount, expiry and how to
//   send; nothing on it changes anything, and there is no POST route (404), so nothing can mint.
//
// Either way the deposit watcher credits what reaches the address. An unknown link answers 404, a
// used or expired one 410, as every link page does.
import formbody from '@fastify/formbody';
import { FUNDING_OUTCOMES, FUNDING_PURPOSE } from '../../stablecoin/funding/funding-links-service.js';
import type { StablecoinFunding } from '../../stablecoin/funding/stablecoin-funding.js';
import { depositFundingPage, fundingDonePage, fundingFailedPage, fundingPage } from '../views/funding-link-pages.js';
import { gonePage, notFoundPage } from '../views/setup-link-pages.js';
import type { App } from '../types.js';
import { outcomeOf, sendUnfinishedLink } from './link-pages-routes.js';
import { sendPage } from '../views/html-reply.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { Clock } from '../../platform/clock.js';

/** What these routes use: the funding service, the clock, and what the deposit page tells a sender. */
export type FundingPagesRoutesDeps = {
  funding: StablecoinFunding;
  clock: Clock;
  chain: Pick<ChainConnection, 'tokens' | 'chainId'>;
  chainConfirmations: number;
};

/** The address a link's account receives on: the one GET /stablecoin/deposit-address gives it. */
async function depositAddressOf(deps: FundingPagesRoutesDeps, accountId: number) {
  return (await deps.funding.depositAddress({ accountId, chain: undefined })).address;
}

const PATH = `/links/${FUNDING_PURPOSE}/:token`;
const PARAMS = { type: 'object', properties: { token: { type: 'string', maxLength: 200 } }, required: ['token'] } as const;

export async function fundingPagesRoutes(app: App, deps: FundingPagesRoutesDeps): Promise<void> {
  if (deps.funding.canMint()) await sandboxFundingPages(app, deps);
  else depositFundingPages(app, deps);
}

async function sandboxFundingPages(app: App, deps: FundingPagesRoutesDeps): Promise<void> {
  // Form posts are accepted by these pages only: the plugin is registered in this scope.
  await app.register(formbody);

  app.get(PATH, { config: { auth: 'public' }, schema: { hide: true, params: PARAMS } }, async (request, reply) => {
    const { token } = request.params;
    const found = await deps.funding.inspectLink({ token });
    if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
    if (found.state !== 'open') return sendPage(reply, 410, gonePage(found.state));
    const depositAddress = await depositAddressOf(deps, found.link.accountId);
    return sendPage(
      reply,
      200,
      fundingPage({
        handle: found.handle,
        order: found.order,
        depositAddress,
        expiresAt: found.link.expiresAt,
        now: deps.clock.now(),
        outcomes: FUNDING_OUTCOMES,
      }),
    );
  });

  app.post(PATH, { config: { auth: 'public' }, schema: { hide: true, params: PARAMS } }, async (request, reply) => {
    const { token } = request.params;
    const outcome = outcomeOf(request.body);
    const result = await deps.funding.completeSandboxLink({ token, outcome: outcome ?? '' });
    switch (result.state) {
      case 'unknown':
      case 'used':
      case 'expired':
      case 'invalid_outcome':
        return sendUnfinishedLink(reply, result);
      case 'mint_failed':
        request.log.error({ err: result.error }, 'minting for a funding link failed');
        return sendPage(reply, 502, fundingFailedPage(result.order));
      case 'completed':
        return sendPage(reply, 200, fundingDonePage(result));
    }
  });
}

function depositFundingPages(app: App, deps: FundingPagesRoutesDeps): void {
  app.get(PATH, { config: { auth: 'public' }, schema: { hide: true, params: PARAMS } }, async (request, reply) => {
    const { token } = request.params;
    const found = await deps.funding.inspectLink({ token });
    if (found.state === 'unknown') return sendPage(reply, 404, notFoundPage());
    if (found.state !== 'open') return sendPage(reply, 410, gonePage(found.state));
    return sendPage(
      reply,
      200,
      depositFundingPage({
        handle: found.handle,
        order: found.order,
        depositAddress: await depositAddressOf(deps, found.link.accountId),
        tokenAddress: deps.chain.tokens[found.order.token],
        chainId: deps.chain.chainId,
        confirmations: deps.chainConfirmations,
        expiresAt: found.link.expiresAt,
        now: deps.clock.now(),
      }),
    );
  });
}
