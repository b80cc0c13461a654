// Sandbox-only: the stablecoin faucet (DESIGN §7). app.ts registers this module only in sandbox
// mode, and the route exists only on the embedded chain, whose token owner can mint; elsewhere the
// path answers 404 like any unknown one.
import { parsePolygonAddress } from '../../stablecoin/polygon-address.js';
import { tokenAmountOf, tokenOf } from '../../stablecoin/stablecoin-amounts.js';
import { MAX_MINT_MAJOR } from '../../stablecoin/funding/sandbox-mint.js';
import type { StablecoinFunding } from '../../stablecoin/funding/stablecoin-funding.js';
import { AppError } from '../../platform/errors.js';
import { operation } from '../schemas/operation.js';
import { FaucetBody, FaucetResponse } from '../schemas/stablecoin-funding-schemas.js';
import type { App } from '../types.js';

/** What these routes use: only these, not the whole composition root. */
export type StablecoinFaucetRoutesDeps = { funding: Pick<StablecoinFunding, 'canMint' | 'mint'> };

export async function stablecoinFaucetRoutes(app: App, deps: StablecoinFaucetRoutesDeps): Promise<void> {
  if (!deps.funding.canMint()) return;
  app.post(
    '/test-helpers/stablecoin/faucet',
    operation({
      operationId: 'mintSandboxTokens',
      tag: 'sandbox',
      summary: 'Mint test USDC or EURC to any address on the embedded chain (sandbox mode only)',
      description:
        'Sent to a user’s deposit address, the tokens are credited like any deposit once the chain has confirmed them. The answer comes when a node has taken the mint transaction. Errors: 400 `invalid_address`, `invalid_amount`, `amount_too_large` (over 1,000,000), `unsupported_currency`; 503 `funding_unavailable` when the node does not take the mint (nothing was minted; retry).',
      auth: 'public',
      readsBody: true,
      body: FaucetBody,
      responses: { 200: FaucetResponse },
      errors: ['invalid_address', 'invalid_amount', 'amount_too_large', 'unsupported_currency', 'funding_unavailable'],
    }),
    async (request) => {
      const address = parsePolygonAddress(request.body.address);
      const token = tokenOf(request.body.currency);
      const amountMinor = tokenAmountOf(request.body.amount, token, MAX_MINT_MAJOR);
      const txHash = await deps.funding.mint({ to: address, token, amountMinor }).catch((error: unknown) => {
        if (error instanceof AppError) throw error;
        // The node refused the mint or did not answer: blocks priced above what peerpay may offer
        // (CHAIN_MAX_FEE_PER_GAS_WEI), a node down or restarting. Nothing was minted, and a retry
        // may succeed: 503, with the cause in the log rather than in the answer.
        request.log.warn({ err: error }, 'sandbox mint not taken by the node');
        throw new AppError(
          'funding_unavailable',
          'The sandbox chain did not take the mint just now (its node refused it or did not answer); nothing was minted. Retry in a moment.',
          {},
          { 'Retry-After': '1' },
        );
      });
      return { txHash: txHash.toLowerCase() };
    },
  );
}
