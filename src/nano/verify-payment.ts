// Verifies a presented payment against an endpoint's requirements before anything is claimed,
// served or settled. The facilitator (@x402/evm's exact scheme, or an external one) checks the
// EIP-712 TransferWithAuthorization signature over the token's domain, the recipient, the exact
// value, the time window by the wall clock and simulates the transfer. peerpay adds what a
// facilitator cannot know or does not check the way peerpay needs: that the payment matches
// this endpoint's terms (scheme, network, asset, payTo, price), the time window against the
// CHAIN's clock (the contract compares with block.timestamp), that the nonce is unused on chain
// and not already claimed here. Each refusal is a PaymentRefused with the specification's reason.
import { isAddressEqual, type Address } from 'viem';
import type { PaymentRequirements, PaymentRequirementsV1 } from '@x402/core/types';
import type { NanoFacilitator } from './facilitator.js';
import type { PresentedPayment } from './payment-header.js';
import { isAuthorizationKnown } from './x402-payments-repository.js';
import { PaymentRefused, specReason } from './x402-reasons.js';
import type { X402Terms } from './x402-terms.js';
import { usdcText } from './pricing.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { Db } from '../db/database.js';

/** An authorization must stay valid at least this long after the next block: time to be mined. */
const VALID_BEFORE_MARGIN_SECONDS = 6n;

export interface VerifyContext {
  deps: { db: Db; chain: ChainConnection };
  terms: X402Terms;
  facilitator: NanoFacilitator;
}

export async function verifyPayment(
  ctx: VerifyContext,
  payment: PresentedPayment,
  required: { priceMinor: bigint; requirements: PaymentRequirements | PaymentRequirementsV1 },
): Promise<{ payer: Address }> {
  const { authorization } = payment;
  // First, so that a replayed header is named a replay whichever endpoint it is replayed on.
  if (await isAuthorizationKnown(ctx.deps.db, authorization.from, authorization.nonce)) {
    throw new PaymentRefused('duplicate_settlement', 'this authorization was already presented to peerpay; sign a new payment');
  }
  checkTerms(ctx.terms, payment, required.priceMinor);
  try {
    await checkChainTime(ctx, authorization.validAfter, authorization.validBefore);
    const used = await ctx.deps.chain.chain.getAuthorizationState({
      token: ctx.terms.asset,
      authorizer: authorization.from,
      nonce: authorization.nonce,
    });
    if (used) throw new PaymentRefused('duplicate_settlement', 'this authorization was already used on chain');
  } catch (error) {
    if (error instanceof PaymentRefused) throw error;
    // The node did not answer: the payment cannot be judged now, and nothing was taken.
    throw new PaymentRefused('unexpected_verify_error', `the chain could not be read: ${messageOf(error)}`);
  }

  let verdict;
  try {
    verdict = await ctx.facilitator.verify(payment.payload, required.requirements);
  } catch (error) {
    throw new PaymentRefused('unexpected_verify_error', `the payment could not be verified: ${messageOf(error)}`);
  }
  if (!verdict.isValid) {
    const reason = specReason(verdict.invalidReason, 'unexpected_verify_error');
    // A failed simulation has many causes; the one a client can act on is its balance.
    if (reason === 'invalid_transaction_state' && (await balanceShort(ctx, payment))) {
      throw new PaymentRefused('insufficient_funds', 'the payer holds less USDC than the price');
    }
    throw new PaymentRefused(reason, `the facilitator refused the payment (${verdict.invalidReason ?? 'no reason given'})`);
  }
  if (verdict.payer && !isAddressEqual(verdict.payer as Address, authorization.from)) {
    throw new PaymentRefused('invalid_exact_evm_payload_signature', 'the facilitator names another payer than the authorization');
  }
  return { payer: authorization.from };
}

/** The payment is for this endpoint on peerpay's terms; cheap checks, before any network call. */
function checkTerms(terms: X402Terms, payment: PresentedPayment, priceMinor: bigint): void {
  if (payment.scheme !== 'exact')
    throw new PaymentRefused('invalid_scheme', `peerpay accepts the "exact" scheme, not "${payment.scheme.slice(0, 32)}"`);
  const network = payment.version === 1 ? terms.networkV1 : terms.networkV2;
  if (network === null || payment.network !== network) {
    throw new PaymentRefused('invalid_network', `pay on ${network ?? terms.networkV2}, not "${payment.network.slice(0, 32)}"`);
  }
  const accepted = payment.accepted;
  if (accepted) {
    if (!sameAddress(accepted.asset, terms.asset))
      throw new PaymentRefused('invalid_payment_requirements', `the asset is USDC at ${terms.asset}`);
    if (!sameAddress(accepted.payTo, terms.payTo))
      throw new PaymentRefused('invalid_exact_evm_payload_recipient_mismatch', `pay to ${terms.payTo}`);
    if (accepted.amount !== priceMinor.toString())
      throw new PaymentRefused('invalid_exact_evm_payload_authorization_value', `the price is ${usdcText(priceMinor)}`);
  }
  if (!isAddressEqual(payment.authorization.to, terms.payTo)) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_recipient_mismatch',
      `the authorization pays ${payment.authorization.to}, not ${terms.payTo}`,
    );
  }
  if (payment.authorization.value !== priceMinor) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_authorization_value',
      `the authorization is for ${usdcText(payment.authorization.value)}; the price is exactly ${usdcText(priceMinor)}`,
    );
  }
}

/**
 * EIP-3009 accepts an authorization in a block whose timestamp is strictly between validAfter and
 * validBefore. The next block's timestamp is at least the newest block's plus one, and chains
 * follow the wall clock, so that is when the relay will be judged.
 */
async function checkChainTime(ctx: VerifyContext, validAfter: bigint, validBefore: bigint): Promise<void> {
  const chain = ctx.deps.chain.chain;
  const head = await chain.getBlock(await chain.getBlockNumber());
  const wallSeconds = BigInt(Math.floor(Date.now() / 1000));
  const nextBlockSeconds = head && head.timestamp + 1n > wallSeconds ? head.timestamp + 1n : wallSeconds;
  if (validAfter >= nextBlockSeconds) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_authorization_valid_after',
      `the authorization is valid only after ${validAfter}; the chain is at ${nextBlockSeconds}`,
    );
  }
  if (validBefore <= nextBlockSeconds + VALID_BEFORE_MARGIN_SECONDS) {
    throw new PaymentRefused(
      'invalid_exact_evm_payload_authorization_valid_before',
      `the authorization expired (or expires within ${VALID_BEFORE_MARGIN_SECONDS} s) at ${validBefore}; the chain is at ${nextBlockSeconds}`,
    );
  }
}

async function balanceShort(ctx: VerifyContext, payment: PresentedPayment): Promise<boolean> {
  try {
    const balance = await ctx.deps.chain.chain.getTokenBalance({ token: ctx.terms.asset, holder: payment.authorization.from });
    return balance < payment.authorization.value;
  } catch {
    return false;
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
