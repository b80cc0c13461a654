// Stablecoin funding: where to send tokens from outside (GET /stablecoin/deposit-address) and
// funding links (POST /stablecoin/buy-session). Deposits themselves are credited by the deposit
// watcher job, not by any request.
import { toJsonNumber } from '../../money/amount.js';
import type { StablecoinFunding } from '../../stablecoin/funding/stablecoin-funding.js';
import { callerOf } from '../plugins/auth.js';
import { IdempotencyHeaders } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import { BuySessionBody, DepositAddressQuery, DepositAddressResponse, FundingLinkResponse } from '../schemas/stablecoin-funding-schemas.js';
import type { App } from '../types.js';

/** What these routes use: only these, not the whole composition root. */
export type StablecoinFundingRoutesDeps = { funding: Pick<StablecoinFunding, 'depositAddress' | 'createLink'> };

export async function stablecoinFundingRoutes(app: App, deps: StablecoinFundingRoutesDeps): Promise<void> {
  app.get(
    '/stablecoin/deposit-address',
    operation({
      operationId: 'getDepositAddress',
      tag: 'stablecoin',
      summary: 'The caller’s Polygon deposit address for USDC and EURC',
      description:
        'Tokens sent to this address on Polygon are credited to the caller’s balance automatically, once the chain has confirmed them. Only USDC and EURC at the token contracts peerpay uses are credited; other tokens sent here are not. Errors: 400 `unsupported_chain` for any chain other than MATIC.',
      auth: 'required',
      querystring: DepositAddressQuery,
      responses: { 200: DepositAddressResponse },
      errors: ['unsupported_chain', 'service_unavailable'],
    }),
    async (request) => deps.funding.depositAddress({ accountId: callerOf(request).accountId, chain: request.query.chain }),
  );

  app.post(
    '/stablecoin/buy-session',
    operation({
      operationId: 'createFundingLink',
      tag: 'stablecoin',
      summary: 'Private link on which the user adds USDC or EURC to their balance (30 minutes, single use)',
      description:
        'The user opens the link to pay; the tokens then arrive at their deposit address and are credited like any deposit. On the embedded sandbox chain the page’s button mints test tokens; on any other chain (live mode) the page shows the deposit address with a QR code, the network, token, amount and expiry, and how to send from an exchange or wallet. Errors: 400 `invalid_amount`, `amount_too_large`, `unsupported_currency`.',
      auth: 'required',
      readsBody: true,
      idempotent: true,
      headers: IdempotencyHeaders,
      body: BuySessionBody,
      responses: { 200: FundingLinkResponse },
      errors: ['invalid_amount', 'amount_too_large', 'unsupported_currency'],
    }),
    async (request) => {
      const link = await deps.funding.createLink({ accountId: callerOf(request).accountId, ...request.body });
      return {
        url: link.url,
        amount: toJsonNumber(link.amountMinor, link.token),
        currency: link.token,
        expiresAt: link.expiresAt.toISOString(),
      };
    },
  );
}
