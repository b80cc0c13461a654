// The deposit watcher: reads the tokens' Transfer logs to users' deposit addresses and credits each
// log once. One round reads bounded block ranges (config.chainScanBlocks, at most the adapter's
// 2,000) for a bounded page of recipients at a time (ACCOUNTS_PER_QUERY), and keeps its place in
// the database after every page, so that a restart neither misses nor repeats a range.
//
// Reorganisations. The watcher reads only blocks with config.chainConfirmations confirmations
// (up to head - confirmations + 1), so a reorganisation within that window never reaches it. One
// deeper than that is noticed: the cursor keeps the hash of the last block it read (and of the
// end of the range under way), and every round compares it with the chain's. On a mismatch the
// round throws DeepReorgError and credits nothing, and every later round does the same until an
// operator has reconciled: the job runner logs it as an error each time. Crediting on from the
// new chain is not safe by itself: a log's (txHash, logIndex) can change when its transaction is
// mined again in another block (the log index counts within the block), so the same transfer could
// be credited twice, and deposits of the orphaned blocks that are not on the new chain were
// credited with money peerpay does not hold. Handling that automatically would need: walking back
// over stored block hashes (chain_deposits.block_hash) to the last common block; for each deposit
// credited in an orphaned block, finding whether its transaction is on the new chain (by hash)
// and re-keying the row if so; reversing the credit of the others (which may exceed what the user
// still holds, so a debt state and a manual review); marking their sweeps; and then moving the
// cursor back to the common block and reading on.
import { getAddress, type Address } from 'viem';
import type { TokenTransferLog } from '../../adapters/chain/chain-adapter.js';
import type { Token } from '../../money/assets.js';
import { MAX_LEDGER_AMOUNT, recordScreenedDeposit } from './deposit-ledger.js';
import { depositFromLog } from './deposits-repository.js';
import { depositAccountsPage, depositAddressesAmong, type DepositAccount } from './deposits-repository.js';
import { insertCursor, moveCursor, readCursor, type ScanCursor } from '../../platform/scan-cursors.js';
import { withDepositScanLock } from './scan-lock.js';
import { firstBlockToScan } from './scan-start.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { SanctionsControls } from '../../compliance/sanctions/sanctions-controls.js';
import type { SanctionsScreening } from '../../compliance/sanctions/sanctions-screening.js';
import type { Config } from '../../config.js';
import type { Database, Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

/** The chain adapter refuses log queries over more blocks than this (its default maxLogBlockRange). */
const MAX_LOG_BLOCK_RANGE = 2000;
/** Recipients per log query; the adapter allows 1,000. */
export const ACCOUNTS_PER_QUERY = 500;
/** Log queries per round; the rest of the work waits for the next round. */
const MAX_QUERIES_PER_ROUND = 20;
/** All steps of a round (beginning or ending a range, reading a page). */
const MAX_STEPS_PER_ROUND = 64;

type WatcherDeps = {
  db: Db;
  database: Database;
  chain: ChainConnection;
  wallets: WalletProvider;
  clock: Clock;
  config: Config;
  sanctions: SanctionsScreening;
  sanctionsControls: SanctionsControls;
};

export class DeepReorgError extends Error {
  override name = 'DeepReorgError';
}

export interface WatchRound {
  /** Another round (this process or, on PostgreSQL, another one) was reading the chain. */
  skipped: boolean;
  /** Deposits this round credited. */
  credited: number;
  /** The first block not yet fully read after the round; null when skipped. */
  nextBlock: bigint | null;
}

/** One round of the watcher, unless another round holds the scan lock. */
export async function watchDeposits(deps: WatcherDeps): Promise<WatchRound> {
  const guarded = await withDepositScanLock(deps, () => scanDeposits(deps));
  return guarded.ran ? guarded.value : { skipped: true, credited: 0, nextBlock: null };
}

/** The round itself, without the lock: safe to run concurrently (tests do), merely wasteful. */
export async function scanDeposits(deps: WatcherDeps): Promise<WatchRound> {
  let cursor = await startingCursor(deps);
  let credited = 0;
  let queries = 0;
  let rangeChecked = false;
  for (let step = 0; step < MAX_STEPS_PER_ROUND && queries < MAX_QUERIES_PER_ROUND; step++) {
    let next: ScanCursor | null;
    if (cursor.range === null) {
      next = await beginRange(deps, cursor);
      if (next === null) break;
      rangeChecked = true;
    } else {
      if (!rangeChecked) {
        await checkBlockHash(deps, { number: cursor.range.to, hash: cursor.range.toHash, what: 'the end of the range being read' });
        rangeChecked = true;
      }
      const page = await depositAccountsPage(deps.db, { after: cursor.range.accountsAfter, limit: ACCOUNTS_PER_QUERY });
      if (page.length === 0) {
        // Every account's logs of this range are credited: the range is done.
        next = { nextBlock: cursor.range.to + 1n, anchorHash: cursor.range.toHash, range: null };
      } else {
        queries++;
        credited += await creditPage(deps, cursor, page);
        next = { ...cursor, range: { ...cursor.range, accountsAfter: page[page.length - 1]!.accountId } };
      }
    }
    // Another watcher moved the cursor meanwhile (possible only without the lock): stop; what this
    // one credited was credited once all the same.
    if (!(await moveCursor(deps.db, { name: 'deposits', expected: cursor, next, now: deps.clock.now() }))) break;
    cursor = next;
  }
  return { skipped: false, credited, nextBlock: cursor.nextBlock };
}

async function startingCursor(deps: WatcherDeps): Promise<ScanCursor> {
  const stored = await readCursor(deps.db, 'deposits');
  if (stored) return stored;
  // The head is read before the accounts are looked at (see scan-start.ts).
  const head = await deps.chain.chain.getBlockNumber();
  await insertCursor(deps.db, { name: 'deposits', nextBlock: await firstBlockToScan(deps, { head }), now: deps.clock.now() });
  const created = await readCursor(deps.db, 'deposits');
  if (!created) throw new Error('the deposit scan cursor was not stored');
  return created;
}

/**
 * The next range to read, up to the newest confirmed block; null when there is none yet. Its end is
 * fixed here, before any page of accounts is read for it, and that order is what makes paging
 * safe: an account that a page misses (created, or committed out of id order, after the page was
 * read) was not yet committed when the range began, so its owner could not yet know its address,
 * and any deposit to it is mined after this range's end and read by a later range from page one.
 */
async function beginRange(deps: WatcherDeps, cursor: ScanCursor): Promise<ScanCursor | null> {
  const head = await deps.chain.chain.getBlockNumber();
  const confirmedHead = head - BigInt(deps.config.chainConfirmations) + 1n;
  if (confirmedHead < cursor.nextBlock) return null;
  if (cursor.anchorHash !== null && cursor.nextBlock > 0n) {
    await checkBlockHash(deps, { number: cursor.nextBlock - 1n, hash: cursor.anchorHash, what: 'the last block read' });
  }
  const width = BigInt(Math.min(deps.config.chainScanBlocks, MAX_LOG_BLOCK_RANGE));
  const to = cursor.nextBlock + width - 1n < confirmedHead ? cursor.nextBlock + width - 1n : confirmedHead;
  const end = await deps.chain.chain.getBlock(to);
  if (!end) return null; // A node behind the one that answered the head; the next round reads it.
  return { nextBlock: cursor.nextBlock, anchorHash: cursor.anchorHash, range: { to, toHash: end.hash, accountsAfter: 0 } };
}

async function checkBlockHash(deps: WatcherDeps, block: { number: bigint; hash: string; what: string }): Promise<void> {
  const now = await deps.chain.chain.getBlock(block.number);
  if (now?.hash.toLowerCase() === block.hash.toLowerCase()) return;
  throw new DeepReorgError(
    `DEPOSITS HALTED: block ${block.number} (${block.what}) had hash ${block.hash} when it was read, and the chain now ` +
      `${now ? `has ${now.hash}` : 'has no such block'}: a reorganisation deeper than the ${deps.config.chainConfirmations} ` +
      'confirmation(s) waited for, or a chain that is not the one this database followed. Nothing is credited until an ' +
      'operator has reconciled the deposits of the orphaned blocks and moved the scan cursor (table chain_scan_cursors).',
  );
}

/** Credits the page's logs in the cursor's range; returns how many were new. */
async function creditPage(deps: WatcherDeps, cursor: ScanCursor, page: readonly DepositAccount[]): Promise<number> {
  const range = cursor.range!;
  const tokens = deps.chain.tokens;
  const logs = await deps.chain.chain.getTransferLogs({
    tokens: [tokens.USDC, tokens.EURC],
    recipients: page.map((a) => a.address),
    fromBlock: cursor.nextBlock,
    toBlock: range.to,
  });
  // The logs must come from the chain the range began on (its end block's hash).
  const foreign = logs.find((l) => l.blockNumber === range.to && l.blockHash.toLowerCase() !== range.toHash.toLowerCase());
  if (foreign) await checkBlockHash(deps, { number: range.to, hash: range.toHash, what: 'the end of the range being read' });
  const deposits = await depositsAmong(deps, logs, page);
  const listed = await listedSenders(deps, deposits);
  let credited = 0;
  for (const { log, accountId, token } of deposits) {
    const deposit = depositFromLog(log, { accountId, token, creditedAt: deps.clock.now() });
    if (await recordScreenedDeposit(deps, deposit, listed.has(deposit.from))) credited++;
  }
  return credited;
}

/**
 * The senders of these deposits that are on a sanctions list, all screened before any is recorded.
 * Screening that cannot answer throws (503 screening_unavailable): the round fails before its
 * cursor moves, and the next round reads the same logs again. A deposit is never credited on an
 * unanswered question, nor blocked on one.
 */
async function listedSenders(deps: WatcherDeps, deposits: readonly { log: TokenTransferLog }[]): Promise<Set<Address>> {
  const listed = new Set<Address>();
  for (const from of new Set(deposits.map((d) => getAddress(d.log.from)))) {
    if ((await deps.sanctions.screen(from)) === 'listed') listed.add(from);
  }
  return listed;
}

/**
 * The logs that are deposits: tokens arriving from outside peerpay. Not deposits: transfers from
 * the hot wallet or from another deposit address (peerpay moving its own custody, e.g. a
 * withdrawal sent to an address that is also a user's deposit address), zero-value transfers, and
 * amounts beyond what the ledger's bigint columns hold (more than any real token supply; the
 * sandbox token's owner alone could mint that much).
 */
async function depositsAmong(deps: WatcherDeps, logs: readonly TokenTransferLog[], page: readonly DepositAccount[]) {
  const accountOf = new Map(page.map((a) => [a.address, a.accountId]));
  const tokenOf = new Map<Address, Token>([
    [getAddress(deps.chain.tokens.USDC), 'USDC'],
    [getAddress(deps.chain.tokens.EURC), 'EURC'],
  ]);
  const hotWallet = getAddress(deps.wallets.hotWallet.address);
  const senders = [...new Set(logs.map((l) => getAddress(l.from)))];
  const ownSenders = await depositAddressesAmong(deps.db, senders);
  const out: { log: TokenTransferLog; accountId: number; token: Token }[] = [];
  for (const log of logs) {
    const from = getAddress(log.from);
    const accountId = accountOf.get(getAddress(log.to));
    const token = tokenOf.get(getAddress(log.token));
    if (accountId === undefined || token === undefined) continue;
    if (from === hotWallet || ownSenders.has(from)) continue;
    if (log.value <= 0n || log.value > MAX_LEDGER_AMOUNT) continue;
    out.push({ log, accountId, token });
  }
  return out;
}
