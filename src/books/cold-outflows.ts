// What the cold addresses sent (decision 0025). The custody check counts a cold address for what
// peerpay sent it, plus what other cold addresses sent it, less what it sent back to peerpay or to
// other cold addresses, and never more than it holds (custody-check.ts). The sending side needs
// the cold addresses' outgoing Transfer logs: without them, tokens that came back to the hot wallet
// would count again there once the operator topped the cold address up with their own, and tokens
// moved from an old cold address to a new one would stop counting.
//
// Every transfer a cold address sends is kept, wherever it went: which recipients are peerpay's is
// decided at each check, with the addresses known then, so a transfer read before its recipient
// became a cold address still counts once it is one. The scan keeps its place in chain_scan_cursors
// ('cold-outflows') and stores what it found in cold_outflows, for confirmed blocks only
// (config.chainConfirmations, as the deposit watcher); the few blocks between the newest confirmed
// one and the check's pinned block are read at each check and not stored. It begins at the first
// block that mined a transfer to a cold address: nothing a cold address sent before can be peerpay's
// custody. Every read is bounded (MAX_LOG_BLOCK_RANGE blocks, MAX_QUERIES_PER_CHECK queries); a scan
// further behind than one check reads fails the check with a clear message and goes on from its
// place at the next one. A stored block whose hash has changed (a reorganisation deeper than the
// confirmations) fails every check until an operator has looked: the check refuses to guess, as
// the deposit watcher does.
import { getAddress, type Address } from 'viem';
import { sql } from 'kysely';
import type { TokenTransferLog } from '../adapters/chain/chain-adapter.js';
import type { Token } from '../money/assets.js';
import { insertCursor, moveCursor, readCursor, type ScanCursor } from '../platform/scan-cursors.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** The chain adapter refuses log queries over more blocks than this (its default maxLogBlockRange). */
const MAX_LOG_BLOCK_RANGE = 2000;
/** Log queries one check may make; a scan further behind goes on at the next check. */
const MAX_QUERIES_PER_CHECK = 100;
/** Distinct (token, sender, recipient) of stored transfers one check reads; beyond it the check refuses to guess. */
const MAX_OUTFLOW_PAIRS = 10_000;

export type ColdOutflowDeps = { db: Db; chain: ChainConnection; clock: Clock; config: Config };

/** Base units of `token` that cold address `from` sent to `to`, up to the pinned block. */
export interface ColdOutflow {
  token: Token;
  from: Address;
  to: Address;
  amountMinor: bigint;
}

/** Everything `coldAddresses` sent up to and including `pinnedBlock`, summed per token, sender and recipient. */
export async function coldOutflows(
  deps: ColdOutflowDeps,
  input: { coldAddresses: readonly Address[]; pinnedBlock: bigint },
): Promise<ColdOutflow[]> {
  if (input.coldAddresses.length === 0) return [];
  const cursor = await startingCursor(deps);
  if (!cursor) return []; // Nothing has reached a cold address yet: nothing it sends can be peerpay's.
  const scan = scanner(deps, input.coldAddresses);
  const confirmedHead = input.pinnedBlock - BigInt(deps.config.chainConfirmations) + 1n;
  const reached = await scanConfirmed(deps, scan, { cursor, confirmedHead });
  const sums = new Map<string, ColdOutflow>();
  const add = (o: ColdOutflow) => {
    const key = `${o.token}:${o.from}:${o.to}`;
    const seen = sums.get(key);
    sums.set(key, seen ? { ...seen, amountMinor: seen.amountMinor + o.amountMinor } : o);
  };
  for (const stored of await storedSums(deps)) add(stored);
  // The blocks after the stored part, up to the pinned block: read now, kept by no one.
  if (ceilDiv(input.pinnedBlock - reached + 1n, scan.width) > BigInt(MAX_QUERIES_PER_CHECK)) throw behind(reached, input.pinnedBlock);
  for (let from = reached; from <= input.pinnedBlock; from += scan.width) {
    const to = minBig(from + scan.width - 1n, input.pinnedBlock);
    for (const log of await scan.sentIn(from, to)) add(outflowOf(log));
  }
  return [...sums.values()];
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
const ceilDiv = (a: bigint, b: bigint) => (a <= 0n ? 0n : (a + b - 1n) / b);

interface SentLog {
  log: TokenTransferLog;
  token: Token;
}

const outflowOf = ({ log, token }: SentLog): ColdOutflow => ({
  token,
  from: getAddress(log.from),
  to: getAddress(log.to),
  amountMinor: log.value,
});

function scanner(deps: ColdOutflowDeps, coldAddresses: readonly Address[]) {
  const tokenOf = new Map<Address, Token>([
    [getAddress(deps.chain.tokens.USDC), 'USDC'],
    [getAddress(deps.chain.tokens.EURC), 'EURC'],
  ]);
  return {
    width: BigInt(Math.min(deps.config.chainScanBlocks, MAX_LOG_BLOCK_RANGE)),
    /** The cold addresses' transfers of peerpay's tokens in [from, to]. */
    async sentIn(from: bigint, to: bigint): Promise<SentLog[]> {
      const logs = await deps.chain.chain.getTransferLogs({
        tokens: [...tokenOf.keys()],
        senders: coldAddresses,
        fromBlock: from,
        toBlock: to,
      });
      const out: SentLog[] = [];
      for (const log of logs) {
        const token = tokenOf.get(getAddress(log.token));
        if (token !== undefined && log.value > 0n) out.push({ log, token });
      }
      return out;
    },
  };
}

/** Reads and stores confirmed blocks from the cursor on; returns the first block it did not store. */
async function scanConfirmed(
  deps: ColdOutflowDeps,
  scan: ReturnType<typeof scanner>,
  input: { cursor: ScanCursor; confirmedHead: bigint },
): Promise<bigint> {
  let cursor = input.cursor;
  if (cursor.nextBlock <= input.confirmedHead) await checkAnchor(deps, cursor);
  for (let queries = 0; cursor.nextBlock <= input.confirmedHead; queries++) {
    if (queries >= MAX_QUERIES_PER_CHECK) throw behind(cursor.nextBlock, input.confirmedHead);
    const to = minBig(cursor.nextBlock + scan.width - 1n, input.confirmedHead);
    const end = await deps.chain.chain.getBlock(to);
    if (!end) break; // A node behind the one that answered the head: the rest is read as the tail.
    const found = await scan.sentIn(cursor.nextBlock, to);
    // Logs of another chain than the range's end block: read again as the tail, stored by a later check.
    if (found.some((s) => s.log.blockNumber === to && s.log.blockHash.toLowerCase() !== end.hash.toLowerCase())) break;
    await storeOutflows(deps, found);
    const next = { nextBlock: to + 1n, anchorHash: end.hash, range: null };
    if (!(await moveCursor(deps.db, { name: 'cold-outflows', expected: cursor, next, now: deps.clock.now() }))) {
      // Another check moved it meanwhile; what this one stored was stored once all the same.
      const moved = await readCursor(deps.db, 'cold-outflows');
      if (!moved) throw new Error('the cold-outflows scan cursor disappeared');
      cursor = moved;
      continue;
    }
    cursor = next;
  }
  return cursor.nextBlock;
}

function behind(at: bigint, target: bigint): Error {
  return new Error(
    `custody check: the scan of what the cold addresses sent is at block ${at}, ${target - at + 1n} blocks behind; ` +
      'it goes on from there at the next check',
  );
}

async function checkAnchor(deps: ColdOutflowDeps, cursor: ScanCursor): Promise<void> {
  if (cursor.anchorHash === null || cursor.nextBlock === 0n) return;
  const block = await deps.chain.chain.getBlock(cursor.nextBlock - 1n);
  if (block?.hash.toLowerCase() === cursor.anchorHash.toLowerCase()) return;
  throw new Error(
    `CUSTODY CHECK HALTED: block ${cursor.nextBlock - 1n} had hash ${cursor.anchorHash} when the scan of the cold addresses ` +
      `read it, and the chain now ${block ? `has ${block.hash}` : 'has no such block'}: a reorganisation deeper than the ` +
      `${deps.config.chainConfirmations} confirmation(s) waited for. The check stops until an operator has reconciled ` +
      "cold_outflows with the chain and moved the 'cold-outflows' row of chain_scan_cursors.",
  );
}

/** The stored cursor, or a new one at the first block that mined a transfer to a cold address; null when none has been. */
async function startingCursor(deps: ColdOutflowDeps): Promise<ScanCursor | null> {
  const stored = await readCursor(deps.db, 'cold-outflows');
  if (stored) return stored;
  const first = await deps.db
    .selectFrom('hot_wallet_outbox')
    .select((eb) => eb.fn.min('block_number').as('block'))
    .where('purpose', '=', 'cold')
    .executeTakeFirst();
  if (first?.block === null || first?.block === undefined) return null;
  await insertCursor(deps.db, { name: 'cold-outflows', nextBlock: BigInt(first.block), now: deps.clock.now() });
  return (await readCursor(deps.db, 'cold-outflows')) ?? null;
}

async function storeOutflows(deps: ColdOutflowDeps, found: readonly SentLog[]): Promise<void> {
  if (found.length === 0) return;
  await deps.db
    .insertInto('cold_outflows')
    .values(
      found.map(({ log, token }) => ({
        tx_hash: log.txHash.toLowerCase(),
        log_index: log.logIndex,
        token,
        from_address: getAddress(log.from),
        to_address: getAddress(log.to),
        amount: String(log.value),
        block_number: log.blockNumber,
        found_at: deps.clock.now(),
      })),
    )
    .onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing())
    .execute();
}

async function storedSums(deps: ColdOutflowDeps): Promise<ColdOutflow[]> {
  const { rows } = await sql<{ token: Token; from_address: string; to_address: string; amount: string }>`
    select token, from_address, to_address, sum(amount)::text as amount
      from cold_outflows group by token, from_address, to_address
     limit ${MAX_OUTFLOW_PAIRS + 1}`.execute(deps.db);
  if (rows.length > MAX_OUTFLOW_PAIRS)
    throw new Error(
      `custody check: the cold addresses sent to more than ${MAX_OUTFLOW_PAIRS} addresses; the check needs another way to read them`,
    );
  return rows.map((r) => ({
    token: r.token,
    from: getAddress(r.from_address),
    to: getAddress(r.to_address),
    amountMinor: BigInt(r.amount),
  }));
}
