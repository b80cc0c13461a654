// The outbox job's round: every unfinished entry is looked at once, lowest nonce first. Mined with
// enough confirmations → 'confirmed' (succeeded) or 'reverted'. Not mined → its recorded bytes are
// sent again (at once when never broadcast, e.g. after a crash between commit and broadcast; at
// most every REBROADCAST_MS otherwise), never a new signature. Entries are leased with SKIP LOCKED,
// so any number of processes may run this; no transaction is open during chain calls.
import type { Deps } from '../../deps.js';
import type { OutboxRecord } from './outbox-entry.js';
import { broadcastRecord } from './hot-wallet-outbox.js';
import { finishEntry, leaseOpenEntries, markMined, releaseLease } from './outbox-repository.js';

type ProcessingDeps = Pick<Deps, 'db' | 'chain' | 'clock' | 'config'>;

/** Long enough for one entry's chain calls; a worker that dies frees its entries after this. */
const LEASE_MS = 60_000;
/** A node that dropped a broadcast transaction gets it again after this long. */
const REBROADCAST_MS = 30_000;
/** A transaction whose broadcast failed (node down, refused) is tried again after this long. */
const RETRY_FAILED_BROADCAST_MS = 5_000;

/** One bounded round over at most `limit` entries; returns how many it looked at. */
export async function reconcileOutbox(deps: ProcessingDeps, limit: number): Promise<number> {
  const leased = await leaseOpenEntries(deps.db, { now: deps.clock.now(), leaseMs: LEASE_MS, limit });
  let firstFailure: unknown = null;
  for (const record of leased) {
    try {
      await reconcileEntry(deps, record);
    } catch (error) {
      firstFailure ??= error;
    } finally {
      await releaseLease(deps.db, record.id);
    }
  }
  if (firstFailure !== null) throw firstFailure;
  return leased.length;
}

async function reconcileEntry(deps: ProcessingDeps, record: OutboxRecord): Promise<void> {
  const outcome = await deps.chain.chain.getTransactionOutcome(record.txHash);
  if (outcome) {
    if (outcome.confirmations >= BigInt(deps.config.chainConfirmations)) {
      await finishEntry(deps.db, {
        id: record.id,
        status: outcome.status === 'success' ? 'confirmed' : 'reverted',
        blockNumber: outcome.blockNumber,
        at: deps.clock.now(),
      });
    } else {
      await markMined(deps.db, { id: record.id, blockNumber: outcome.blockNumber });
    }
    return;
  }
  // Never broadcast (a crash between commit and broadcast, or a request still under way): now.
  if (record.lastBroadcastAt === null) {
    await broadcastRecord(deps, record);
    return;
  }
  const sinceMs = deps.clock.now().getTime() - record.lastBroadcastAt.getTime();
  if (sinceMs >= (record.status === 'signed' ? RETRY_FAILED_BROADCAST_MS : REBROADCAST_MS)) await broadcastRecord(deps, record);
}
