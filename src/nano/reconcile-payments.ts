// Finishes on-chain payments whose request ended before their settlement did (a relay not mined
// within the request's wait, a crash, an external facilitator that timed out). The token contract
// is the judge: once authorizationState(payer, nonce) is true, the authorization moved exactly the
// price to payTo (verification made sure of both), whoever relayed it, so the payment is settled
// and its revenue is posted (when it paid the hot wallet: see x402-ledger.ts); once the chain's time has passed validBefore with the nonce unused,
// it can never move, so the payment failed; a claim for which nothing was ever relayed (no
// transaction known, no outbox entry) failed too. Anything else waits for the next round.
import { findOutboxEntry } from '../stablecoin/outbox/hot-wallet-outbox.js';
import { recordChainRevenue } from './x402-ledger.js';
import { x402OutboxReference } from './x402-reference.js';
import { markFailed, markSettled, settlingPayments } from './x402-payments-repository.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** Younger payments may still have their request waiting on them. */
const MIN_AGE_MS = 60_000;

export async function reconcileX402Payments(
  deps: { db: Db; chain: ChainConnection; clock: Clock; wallets: WalletProvider },
  limit: number,
): Promise<number> {
  const now = deps.clock.now();
  const open = await settlingPayments(deps.db, { olderThan: new Date(now.getTime() - MIN_AGE_MS), limit });
  if (open.length === 0) return 0;
  const chain = deps.chain.chain;
  const token = deps.chain.tokens.USDC;
  const head = await chain.getBlock(await chain.getBlockNumber());
  for (const payment of open) {
    const used = await chain.getAuthorizationState({ token, authorizer: payment.payer, nonce: payment.nonce });
    if (used) {
      await deps.db.transaction().execute(async (trx) => {
        if (await markSettled(trx, { id: payment.id, txHash: null, at: deps.clock.now() })) {
          await recordChainRevenue(trx, {
            id: payment.id,
            amountMinor: payment.amountMinor,
            payTo: payment.payTo,
            hotWallet: deps.wallets.hotWallet.address,
          });
        }
      });
    } else if (head && head.timestamp >= payment.validBefore) {
      await markFailed(deps.db, { id: payment.id, reason: 'expired_unsettled' });
    } else if (
      payment.txHash === null &&
      !(await findOutboxEntry(deps.db, { purpose: 'x402', referenceId: x402OutboxReference(payment.payer, payment.nonce) }))
    ) {
      // Claimed, but its request ended before anything was relayed (a crash): nothing will be.
      // Without this, an authorization that never expires would stay 'settling' for ever.
      await markFailed(deps.db, { id: payment.id, reason: 'not_sent' });
    }
  }
  return open.length;
}
