// Settles a verified on-chain payment and serves the answer only once the money has moved:
//   1. claim the authorization (unique payer + nonce): a second request with the same one stops here;
//   2. compute the answer (read-only), so that a failure there costs the client nothing;
//   3. settle through the facilitator: the built-in one relays transferWithAuthorization from the
//      hot wallet through the outbox and waits (at most SETTLE_WAIT_MS) until it is mined;
//   4. in one database transaction, mark the payment settled and post the revenue to the ledger
//      (only when it paid the hot wallet: see x402-ledger.ts).
// A relay that was sent but not seen mined in time stays 'settling'; the reconciliation job
// (reconcile-payments.ts) finishes it from the chain, so revenue is recorded exactly once either way.
import type { SettleResponse } from '@x402/core/types';
import type { Address } from 'viem';
import { newId } from '../platform/ids.js';
import { findOutboxEntry } from '../stablecoin/outbox/hot-wallet-outbox.js';
import type { PresentedPayment } from './payment-header.js';
import { endpointKey, type NanoEndpoint } from './pricing.js';
import type { VerifyContext } from './verify-payment.js';
import { recordChainRevenue } from './x402-ledger.js';
import { claimAuthorization, markFailed, markSettled, recordTransaction, releaseClaim } from './x402-payments-repository.js';
import { PaymentRefused, specReason } from './x402-reasons.js';
import { x402OutboxReference } from './x402-reference.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface SettleContext extends VerifyContext {
  deps: { db: Db; chain: ChainConnection; clock: Clock; wallets: WalletProvider };
}

export interface Settlement {
  paymentId: string;
  transaction: string;
  network: string;
  payer: Address;
}

const PENDING = 'settlement_pending';

export async function settleAndServe<T>(
  ctx: SettleContext,
  input: {
    payment: PresentedPayment;
    payer: Address;
    endpoint: NanoEndpoint;
    requirements: Parameters<VerifyContext['facilitator']['settle']>[1];
    compute: () => Promise<T>;
  },
): Promise<{ result: T; settlement: Settlement }> {
  const { db } = ctx.deps;
  const { payment, endpoint } = input;
  const paymentId = newId('x402');
  const claimed = await claimAuthorization(db, {
    id: paymentId,
    endpoint: endpointKey(endpoint),
    amountMinor: endpoint.priceMinor,
    protocolVersion: payment.version,
    payer: input.payer,
    nonce: payment.authorization.nonce,
    validBefore: payment.authorization.validBefore,
    payTo: ctx.terms.payTo,
    now: ctx.deps.clock.now(),
  });
  if (!claimed) throw new PaymentRefused('duplicate_settlement', 'another request is settling (or settled) this authorization');

  let result: T;
  try {
    result = await input.compute();
  } catch (error) {
    await releaseClaim(db, paymentId);
    throw error;
  }

  let settled: SettleResponse;
  try {
    settled = await ctx.facilitator.settle(payment.payload, input.requirements);
  } catch (error) {
    // An exception from the facilitator leaves it unknown whether anything was sent.
    await finishUnknown(ctx, paymentId, payment);
    throw new PaymentRefused(
      'unexpected_settle_error',
      `settlement failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`,
    );
  }
  if (!settled.success) await refuseFailedSettlement(ctx, paymentId, payment, settled);

  const settledAt = ctx.deps.clock.now();
  await db.transaction().execute(async (trx) => {
    // The job may have finished it first (a request that outlived its own wait); then it is counted.
    if (await markSettled(trx, { id: paymentId, txHash: settled.transaction, at: settledAt })) {
      await recordChainRevenue(trx, {
        id: paymentId,
        amountMinor: endpoint.priceMinor,
        payTo: ctx.terms.payTo,
        hotWallet: ctx.deps.wallets.hotWallet.address,
      });
    }
  });
  return { result, settlement: { paymentId, transaction: settled.transaction, network: settled.network, payer: input.payer } };
}

async function refuseFailedSettlement(
  ctx: SettleContext,
  paymentId: string,
  payment: PresentedPayment,
  settled: SettleResponse,
): Promise<never> {
  if (settled.errorReason === PENDING && settled.transaction) {
    // Sent, not yet seen mined: the job settles it (and counts it) when it is.
    await recordTransaction(ctx.deps.db, paymentId, settled.transaction);
    throw new PaymentRefused(
      'unexpected_settle_error',
      `the payment ${settled.transaction} was sent but not mined in time; it is recorded, and the resource was not served`,
    );
  }
  if (!settled.transaction) {
    await finishUnknown(ctx, paymentId, payment);
  } else {
    // Mined and reverted: the authorization was not used; the claim stays, as failed.
    await markFailed(ctx.deps.db, { id: paymentId, reason: settled.errorReason ?? 'reverted' });
  }
  throw new PaymentRefused(
    specReason(settled.errorReason, 'unexpected_settle_error'),
    `settlement failed (${settled.errorReason ?? 'no reason given'})`,
  );
}

/** Nothing known to be sent: fail the claim unless the outbox holds a relay for it (then the job decides). */
async function finishUnknown(ctx: SettleContext, paymentId: string, payment: PresentedPayment): Promise<void> {
  if (ctx.facilitator.kind === 'built-in') {
    const entry = await findOutboxEntry(ctx.deps.db, {
      purpose: 'x402',
      referenceId: x402OutboxReference(payment.authorization.from, payment.authorization.nonce),
    });
    // An x402 relay is always a transaction peerpay signed (decision 0044): its hash is known.
    if (entry?.txHash) {
      await recordTransaction(ctx.deps.db, paymentId, entry.txHash);
      return;
    }
    await markFailed(ctx.deps.db, { id: paymentId, reason: 'not_sent' });
  }
  // An external facilitator may have sent it anyway; the job asks the chain.
}
