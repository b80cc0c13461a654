// The outbox job's round: every unfinished entry is looked at once, lowest nonce first. Mined with
// enough confirmations → 'confirmed' (succeeded) or 'reverted'. Not mined → its recorded bytes are
// sent again (at once when never broadcast, e.g. after a crash between commit and broadcast; at
// most every REBROADCAST_MS otherwise), never a new signature. Entries are leased with SKIP LOCKED,
// so any number of processes may run this; no transaction is open during chain calls.
import { keccak256 } from 'viem';
import { assert } from '../../platform/errors.js';
import type { Db } from '../../db/database.js';
import { isDatabaseUnavailable, retryIfUnavailable } from '../../db/database-unavailable.js';
import type { AnyOutboxRecord, OutboxRecord } from './outbox-entry.js';
import { reconcileCircleEntry } from './circle-outbox.js';
import { broadcastRecord } from './hot-wallet-outbox.js';
import {
  finishEntry,
  leaseOpenEntries,
  markMined,
  releaseLease,
  releaseLeasesEnding,
  replaceCurrent,
  replacedTransactions,
} from './outbox-repository.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';

type ProcessingDeps = { db: Db; chain: ChainConnection; clock: Clock; config: Config; wallets: WalletProvider; owedLeases: OwedLeases };

/** Long enough for one entry's chain calls; a worker that dies frees its entries after this. */
const LEASE_MS = 60_000;
/** A node that dropped a broadcast transaction gets it again after this long. */
const REBROADCAST_MS = 30_000;
/** A transaction whose broadcast failed (node down, refused) is tried again after this long. */
const RETRY_FAILED_BROADCAST_MS = 5_000;
/** A replacement offers at least this much more per gas than the transaction it replaces (nodes ask 10%). */
const REPLACEMENT_BUMP_PERCENT = 25n;
/** How long an entry's lease release is tried over lost connections (the next round gives back the rest). */
const RELEASE_WITHIN_MS = 200;

/**
 * The lease ends of this process's rounds that may still hold entries: a lease statement whose
 * answer the database connection lost (it may have committed), or a release that failed while the
 * database was away. Left alone, those entries (withdrawals among them) would wait out the whole
 * lease; the next round gives them back first. A lease end is a round's own timestamp, so another
 * worker's lease is touched only if its round began in the same millisecond, and then it only
 * means that two workers look at one entry, which every step here tolerates (the same bytes are
 * broadcast, the same outcome recorded), as they do when a lease runs out mid-round.
 * Kept by the composition root, one per process and database (createOwedLeases).
 */
export interface OwedLeases {
  owe(until: Date): void;
  /** Gives back every lease owed, forgetting each once its release committed. */
  giveBack(db: Db): Promise<void>;
}

export function createOwedLeases(): OwedLeases {
  const owed = new Set<number>();
  return {
    owe: (until) => void owed.add(until.getTime()),
    async giveBack(db) {
      if (owed.size === 0) return;
      const untils = [...owed];
      await releaseLeasesEnding(
        db,
        untils.map((ms) => new Date(ms)),
      );
      for (const ms of untils) owed.delete(ms);
    },
  };
}

/** One bounded round over at most `limit` entries; returns how many it looked at. */
export async function reconcileOutbox(deps: ProcessingDeps, limit: number): Promise<number> {
  await deps.owedLeases.giveBack(deps.db);
  const now = deps.clock.now();
  const until = new Date(now.getTime() + LEASE_MS);
  let leased: AnyOutboxRecord[];
  try {
    leased = await leaseOpenEntries(deps.db, { now, until, limit });
  } catch (error) {
    if (isDatabaseUnavailable(error)) deps.owedLeases.owe(until);
    throw error;
  }
  // Every item is tried; the first failure is rethrown once all have been.
  const failures: unknown[] = [];
  for (const record of leased) {
    try {
      await reconcileEntry(deps, record);
    } catch (error) {
      failures.push(error);
    } finally {
      // A release that fails (the database went away) must not end the round: the entries after
      // this one are leased too. What is not given back now is given back by the next round, so
      // each entry's release is tried only briefly: in an outage a round ends in moments.
      await retryIfUnavailable(() => releaseLease(deps.db, record.id), RELEASE_WITHIN_MS).catch((error: unknown) => {
        deps.owedLeases.owe(until);
        failures.push(error);
      });
    }
  }
  if (failures.length > 0) throw failures[0];
  return leased.length;
}

async function reconcileEntry(deps: ProcessingDeps, record: AnyOutboxRecord): Promise<void> {
  if (record.provider === 'circle') {
    assert(deps.wallets.provider === 'circle', 'a Circle transfer is followed with WALLET_PROVIDER=circle');
    await reconcileCircleEntry({ ...deps, wallets: deps.wallets }, record);
    return;
  }
  await reconcileTransaction(deps, record);
}

async function reconcileTransaction(deps: ProcessingDeps, record: OutboxRecord): Promise<void> {
  // The current transaction and any it replaced share one nonce: at most one of them is mined, and
  // whichever it is decides the entry, once (finishEntry is conditional on the entry being open).
  const current = { txHash: record.txHash, rawTx: record.rawTx };
  for (const attempt of [current, ...(await replacedTransactions(deps.db, record.id))]) {
    const outcome = await deps.chain.chain.getTransactionOutcome(attempt.txHash);
    if (!outcome) continue;
    if (outcome.confirmations >= BigInt(deps.config.chainConfirmations)) {
      await finishEntry(deps.db, {
        id: record.id,
        status: outcome.status === 'success' ? 'confirmed' : 'reverted',
        blockNumber: outcome.blockNumber,
        at: deps.clock.now(),
        ...(attempt === current ? {} : { mined: attempt }),
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
  const now = deps.clock.now().getTime();
  // Stuck (dropped by the node, or priced below what blocks take): the same nonce, a higher fee.
  if (now - record.currentSince.getTime() >= deps.config.treasury.replaceAfterMs && (await replaceStuck(deps, record))) return;
  const sinceMs = now - record.lastBroadcastAt.getTime();
  if (sinceMs >= (record.status === 'signed' ? RETRY_FAILED_BROADCAST_MS : REBROADCAST_MS)) await broadcastRecord(deps, record);
}

/** Signs and records a replacement, then broadcasts it; false when the fee cap leaves no room. */
async function replaceStuck(deps: ProcessingDeps, record: OutboxRecord): Promise<boolean> {
  assert(record.sender.toLowerCase() === deps.wallets.relayer.address.toLowerCase(), 'the outbox signs with the relayer key only');
  const signed = await deps.chain.chain.signReplacement({
    sender: deps.wallets.relayer,
    serialized: record.rawTx,
    bumpPercent: REPLACEMENT_BUMP_PERCENT,
  });
  if (!signed) return false;
  assert(signed.nonce === record.nonce, 'a replacement keeps the nonce');
  assert(keccak256(signed.serialized) === signed.hash.toLowerCase(), 'the hash names the signed bytes');
  const previous = { txHash: record.txHash, rawTx: record.rawTx };
  const next = { txHash: signed.hash, rawTx: signed.serialized };
  if (!(await replaceCurrent(deps.db, { id: record.id, previous, next, at: deps.clock.now() }))) return true;
  await broadcastRecord(deps, { ...record, ...next });
  return true;
}
