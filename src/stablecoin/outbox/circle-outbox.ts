// The outbox with WALLET_PROVIDER=circle: every sweep, withdrawal and cold transfer is a Circle
// transfer transaction. The entry (its id a UUID, with what to ask Circle) is recorded and
// committed BEFORE Circle is asked; the transfer's idempotencyKey is that id and its refId names
// the purpose and reference. So a crash between the commit and the call, or an answer lost on the
// way back, is resolved by asking again with the same key (the outbox job does, at once): Circle
// answers with the transfer it already has, never a second one. The job then follows each with
// GET transaction: COMPLETE is confirmed (its hash and block recorded); FAILED, CANCELLED, DENIED
// reverted (the callers end the sweep, refund the withdrawal, end the cold transfer, exactly as a
// reverted transaction of the hot wallet); anything else under way.
import { randomUUID } from 'node:crypto';
import type { Address, Hash } from 'viem';
import { CircleApiError, circleOutcome } from '../../adapters/circle/circle-port.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { CircleWalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import { assert } from '../../platform/errors.js';
import type { Clock } from '../../platform/clock.js';
import { chainErrorText } from './chain-error-text.js';
import { findRecord, recordBroadcastError } from './outbox-repository.js';
import type { CircleAsset, CircleOutboxRecord, OutboxPurpose } from './outbox-entry.js';
import { finishCircleEntry, insertCircleEntry, lockCircleSends, markCircleAccepted, noteCircleState } from './circle-outbox-repository.js';

export type CircleOutboxDeps = { db: Db; chain: ChainConnection; wallets: CircleWalletProvider; clock: Clock };

export interface CircleSend {
  purpose: OutboxPurpose;
  referenceId: string;
  /** The Circle wallet that sends: the treasury's, or a user's for a sweep. */
  from: { walletId: string; address: Address };
  token: CircleAsset;
  to: Address;
  amountMinor: bigint;
  /** As for the hot wallet (hot-wallet-outbox.ts): runs under the lock before the entry is recorded; throwing records nothing. */
  precondition?: (trx: Trx) => Promise<void>;
}

/** The refId Circle keeps with the transfer: what it is for, in peerpay's words. */
export function circleRefId(entry: { purpose: OutboxPurpose; referenceId: string }): string {
  return `${entry.purpose}:${entry.referenceId}`;
}

/** Records the transfer (once per purpose and reference), then asks Circle; a second call asks again only while Circle's answer is missing. */
export async function sendThroughCircle(deps: CircleOutboxDeps, send: CircleSend): Promise<{ outboxId: string; txHash: Hash | null }> {
  assert(send.referenceId.length > 0 && send.referenceId.length <= 200, 'an outbox reference is 1 to 200 characters');
  assert(send.amountMinor > 0n, 'a Circle transfer moves a positive amount');
  const earlier = await findRecord(deps.db, send);
  if (earlier) return askAgain(deps, earlier);
  const outcome = await deps.db.transaction().execute(async (trx) => {
    await lockCircleSends(trx);
    const raced = await findRecord(trx, send);
    if (raced) return { existing: raced, created: null };
    await send.precondition?.(trx);
    const created = await insertCircleEntry(trx, {
      id: randomUUID(),
      purpose: send.purpose,
      referenceId: send.referenceId,
      sender: send.from.address,
      walletId: send.from.walletId,
      token: send.token,
      destination: send.to,
      amountMinor: send.amountMinor,
      now: deps.clock.now(),
    });
    return { existing: null, created };
  });
  if (outcome.existing) return askAgain(deps, outcome.existing);
  await submitToCircle(deps, outcome.created);
  return { outboxId: outcome.created.id, txHash: null };
}

async function askAgain(
  deps: CircleOutboxDeps,
  record: Awaited<ReturnType<typeof findRecord>> & object,
): Promise<{ outboxId: string; txHash: Hash | null }> {
  assert(record.provider === 'circle', 'with WALLET_PROVIDER=circle the outbox holds Circle transfers');
  if (record.status === 'signed') await submitToCircle(deps, record);
  return { outboxId: record.id, txHash: record.txHash };
}

/**
 * Asks Circle for the transfer, keyed by the entry's id. A refusal (a 4xx other than 429: the
 * request itself is wrong, or the wallet cannot send it) ends the entry reverted, as a transaction
 * the chain refuses; no answer leaves it for the job to ask again with the same key.
 */
export async function submitToCircle(deps: CircleOutboxDeps, record: CircleOutboxRecord): Promise<boolean> {
  const at = deps.clock.now();
  try {
    const created = await deps.wallets.circle.api.createTransfer({
      walletId: record.walletId,
      tokenAddress: record.token === 'POL' ? null : deps.chain.tokens[record.token],
      destinationAddress: record.destination,
      amount: record.amountMinor,
      refId: circleRefId(record),
      idempotencyKey: record.id,
    });
    await markCircleAccepted(deps.db, { id: record.id, circleTransactionId: created.id, state: created.state, at });
    return true;
  } catch (error) {
    const text = chainErrorText(error);
    if (error instanceof CircleApiError && !error.retryable && error.status !== null) {
      await finishCircleEntry(deps.db, {
        id: record.id,
        status: 'reverted',
        state: 'REFUSED',
        txHash: null,
        blockNumber: null,
        error: text,
        at,
      });
    } else {
      // Circle did not answer (a network failure, retries spent): the job asks again, with the same key.
      await recordBroadcastError(deps.db, { id: record.id, at, error: text });
    }
    return false;
  }
}

/** The outbox job's look at one Circle entry: asks again while unanswered, otherwise follows Circle's transaction. */
export async function reconcileCircleEntry(deps: CircleOutboxDeps, record: CircleOutboxRecord): Promise<void> {
  if (record.circleTransactionId === null) {
    await submitToCircle(deps, record);
    return;
  }
  const tx = await deps.wallets.circle.api.getTransaction(record.circleTransactionId);
  const outcome = circleOutcome(tx.state);
  if (outcome === 'under_way') {
    await noteCircleState(deps.db, { id: record.id, state: tx.state, txHash: tx.txHash });
    return;
  }
  await finishCircleEntry(deps.db, {
    id: record.id,
    status: outcome === 'complete' ? 'confirmed' : 'reverted',
    state: tx.state,
    txHash: tx.txHash,
    blockNumber: tx.blockHeight,
    error: outcome === 'complete' ? null : `Circle's transaction ${tx.id} ended ${tx.state}`,
    at: deps.clock.now(),
  });
}
