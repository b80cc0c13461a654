// Funding links (POST /stablecoin/buy-session, DESIGN §6–7, §11): a private, single-use link, valid
// for 30 minutes, on which the user adds `amount` of a token to their balance. peerpay serves the
// page itself, at PUBLIC_URL. On the embedded sandbox chain the page has buttons, and completing it
// mints test tokens to the user's deposit address. On any other chain (live mode on Polygon, or a
// sandbox pointed at an external node) nothing can be minted: the page shows the user's deposit
// address (with a QR code), the network, token, amount and expiry, and how to send from an exchange
// or a wallet. Either way the deposit watcher credits what reaches the address, like any other
// deposit. The links share the setup links' table and rules: 256-bit random token, only its hash
// stored, checked against the service clock.
import type { Hash } from 'viem';
import { findAccountById } from '../../accounts/accounts-repository.js';
import { findLinkByTokenHash, insertLink, useLink, type LinkRow } from '../../links/links-repository.js';
import { isToken, type Token } from '../../money/assets.js';
import { assert } from '../../platform/errors.js';
import { newToken, sha256Hex } from '../../platform/ids.js';
import { tokenAmountOf, tokenOf } from '../stablecoin-amounts.js';
import { mintTestTokens } from './sandbox-mint.js';
import { accountDepositAddress } from '../../accounts/account-wallet.js';
import { recordLinkCompleted } from '../../links/link-events.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

export const FUNDING_PURPOSE = 'funding';
export const FUNDING_LINK_LIFETIME_MS = 30 * 60 * 1000;
export const FUNDING_OUTCOMES = ['succeed', 'cancel'] as const;
export type FundingOutcome = (typeof FUNDING_OUTCOMES)[number];

/** Tokens are base62 of 32 random bytes; anything else cannot be a token and is not looked up. */
const TOKEN_SHAPE = /^[0-9A-Za-z]{43}$/;

export interface FundingLink {
  url: string;
  token: Token;
  amountMinor: bigint;
  expiresAt: Date;
}

export async function createFundingLink(
  deps: { db: Db; clock: Clock; config: Config },
  input: { accountId: number; amount: number; currency: string },
): Promise<FundingLink> {
  const token = tokenOf(input.currency);
  const amountMinor = tokenAmountOf(input.amount, token, deps.config.maxStablecoinOperationMajor);
  const linkToken = newToken();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + FUNDING_LINK_LIFETIME_MS);
  await insertLink(deps.db, {
    tokenHash: sha256Hex(linkToken),
    accountId: input.accountId,
    purpose: FUNDING_PURPOSE,
    payload: JSON.stringify({ token, amountMinor: amountMinor.toString() }),
    expiresAt,
    createdAt: now,
  });
  return { url: `${deps.config.publicUrl}/links/${FUNDING_PURPOSE}/${linkToken}`, token, amountMinor, expiresAt };
}

export interface FundingOrder {
  token: Token;
  amountMinor: bigint;
}

function orderOf(link: LinkRow): FundingOrder {
  const parsed = JSON.parse(link.payload ?? 'null') as { token?: unknown; amountMinor?: unknown } | null;
  assert(
    parsed && isToken(parsed.token) && typeof parsed.amountMinor === 'string' && /^[1-9]\d*$/.test(parsed.amountMinor),
    'a funding link names its token and amount',
  );
  return { token: parsed.token, amountMinor: BigInt(parsed.amountMinor) };
}

export type FundingLinkState =
  | { state: 'unknown' }
  | { state: 'used' | 'expired'; link: LinkRow }
  | { state: 'open'; link: LinkRow; order: FundingOrder; handle: string };

/** What a funding link is now: unknown (also a token of another purpose), used, expired or open. */
export async function inspectFundingLink(deps: { db: Db; clock: Clock }, input: { token: string }): Promise<FundingLinkState> {
  if (!TOKEN_SHAPE.test(input.token)) return { state: 'unknown' };
  const link = await findLinkByTokenHash(deps.db, sha256Hex(input.token));
  if (!link || link.purpose !== FUNDING_PURPOSE) return { state: 'unknown' };
  if (link.usedAt !== null) return { state: 'used', link };
  if (link.expiresAt <= deps.clock.now()) return { state: 'expired', link };
  const owner = await findAccountById(deps.db, link.accountId);
  assert(owner, 'a link belongs to an existing account');
  return { state: 'open', link, order: orderOf(link), handle: owner.handle };
}

export type FundingCompletion =
  | { state: 'unknown' | 'used' | 'expired' }
  | { state: 'invalid_outcome'; allowed: readonly FundingOutcome[] }
  | { state: 'completed'; outcome: 'cancel' }
  | { state: 'completed'; outcome: 'succeed'; order: FundingOrder; txHash: Hash }
  | { state: 'mint_failed'; order: FundingOrder; error: unknown };

/**
 * The user pressed a button on the sandbox funding page. The link is used up first, in its own
 * transaction (the conditional update lets exactly one of racing submissions through), and only
 * then are the tokens minted: minting is what cannot be undone, so it happens at most once per
 * link. A mint that fails after that leaves the link used and nothing minted; the page says so.
 */
export async function completeSandboxFundingLink(
  deps: { db: Db; clock: Clock; chain: ChainConnection; wallets: WalletProvider },
  input: { token: string; outcome: string },
): Promise<FundingCompletion> {
  const found = await inspectFundingLink(deps, input);
  if (found.state !== 'open') return { state: found.state };
  const outcome = FUNDING_OUTCOMES.find((o) => o === input.outcome);
  if (outcome === undefined) return { state: 'invalid_outcome', allowed: FUNDING_OUTCOMES };
  const now = deps.clock.now();
  const used = await deps.db.transaction().execute(async (trx) => {
    if (!(await useLink(trx, { id: found.link.id, outcome, now }))) return false;
    if (outcome === 'succeed') {
      const { link, order } = found;
      await recordLinkCompleted(trx, { accountId: link.accountId, linkId: link.id, kind: 'funding', outcome, now, funding: order });
    }
    return true;
  });
  if (!used) return { state: found.link.expiresAt <= now ? 'expired' : 'used' };
  if (outcome === 'cancel') return { state: 'completed', outcome };
  try {
    const txHash = await mintTestTokens(deps, {
      to: await accountDepositAddress(deps, found.link.accountId),
      token: found.order.token,
      amountMinor: found.order.amountMinor,
    });
    return { state: 'completed', outcome, order: found.order, txHash };
  } catch (error) {
    return { state: 'mint_failed', order: found.order, error };
  }
}
