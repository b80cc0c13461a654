// What came back from the cold addresses (decision 0025). The custody check counts a cold address for
// what peerpay sent it, less what it has since sent back to one of peerpay's own addresses (the hot
// wallet, a deposit address), and never more than it holds. The second term needs the cold
// addresses' outgoing Transfer logs: without it, tokens that came back to the hot wallet would count
// again there once the operator topped the cold address up with their own, and up to that amount a
// real shortfall would not show.
//
// The scan keeps its place in chain_scan_cursors ('cold-returns') and stores what it found in
// cold_returns, for confirmed blocks only (config.chainConfirmations, as the deposit watcher); the
// few blocks between the newest confirmed one and the check's pinned block are read at each check
// and not stored. It begins at the first block that mined a transfer to a cold address: nothing
// before it can be peerpay's custody coming back. Every read is bounded (MAX_LOG_BLOCK_RANGE blocks,
// MAX_QUERIES_PER_CHECK queries); a scan further behind than one check reads fails the check with a
// clear message and goes on from its place at the next one. A stored block whose hash has changed
// (a reorganisation deeper than the confirmations) fails every check until an operator has looked:
// the check refuses to guess, as the deposit watcher does.
import { getAddress, type Address } from 'viem';
import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import type { TokenTransferLog } from '../adapters/chain/chain-adapter.js';
import type { Token } from '../money/assets.js';
import { insertCursor, moveCursor, readCursor, type ScanCursor } from '../platform/scan-cursors.js';

/** The chain adapter refuses log queries over more blocks than this (its default maxLogBlockRange). */
const MAX_LOG_BLOCK_RANGE = 2000;
/** Log queries one check may make for the stored part; a scan further behind goes on at the next check. */
const MAX_QUERIES_PER_CHECK = 100;

export type ColdReturnsDeps = Pick<Deps, 'db' | 'chain' | 'clock' | 'config'>;

export interface ColdReturnsInput {
  /** Every cold address peerpay has sent to. */
  coldAddresses: readonly Address[];
  /** Where tokens count as back in peerpay's custody: the hot wallet and every deposit address. */
  ownAddresses: readonly Address[];
  /** The check's block: what came back up to and including it counts. */
  pinnedBlock: bigint;
}

/** Base units that came back to peerpay by `pinnedBlock`, keyed by `returnKey(token, cold address)`. */
export async function coldReturns(deps: ColdReturnsDeps, input: ColdReturnsInput): Promise<Map<string, bigint>> {
  const returned = new Map<string, bigint>();
  if (input.coldAddresses.length === 0) return returned;
  const cursor = await startingCursor(deps);
  if (!cursor) return returned; // Nothing has reached a cold address yet: nothing can have come back.
  const scan = scanner(deps, input);
  const confirmedHead = input.pinnedBlock - BigInt(deps.config.chainConfirmations) + 1n;
  const reached = await scanConfirmed(deps, scan, { cursor, confirmedHead });
  for (const row of await storedSums(deps)) add(returned, row.token, row.from, row.amount);
  // The blocks after the stored part, up to the pinned block: read now, kept by no one.
  if ((input.pinnedBlock - reached + 1n + scan.width - 1n) / scan.width > BigInt(MAX_QUERIES_PER_CHECK))
    throw behind(reached, input.pinnedBlock);
  for (let from = reached; from <= input.pinnedBlock; from += scan.width) {
    const to = minBig(from + scan.width - 1n, input.pinnedBlock);
    for (const r of await scan.returnsIn(from, to)) add(returned, r.token, r.from, r.log.value);
  }
  return returned;
}

export function returnKey(token: Token, coldAddress: string): string {
  return `${token}:${coldAddress.toLowerCase()}`;
}

function add(map: Map<string, bigint>, token: Token, from: string, amount: bigint): void {
  const key = returnKey(token, from);
  map.set(key, (map.get(key) ?? 0n) + amount);
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);

interface ColdReturn {
  log: TokenTransferLog;
  token: Token;
  from: Address;
}

function scanner(deps: ColdReturnsDeps, input: ColdReturnsInput) {
  const tokenOf = new Map<Address, Token>([
    [getAddress(deps.chain.tokens.USDC), 'USDC'],
    [getAddress(deps.chain.tokens.EURC), 'EURC'],
  ]);
  const own = new Set(input.ownAddresses.map((a) => getAddress(a)));
  return {
    width: BigInt(Math.min(deps.config.chainScanBlocks, MAX_LOG_BLOCK_RANGE)),
    /** The cold addresses' transfers in [from, to] that went to one of peerpay's addresses. */
    async returnsIn(from: bigint, to: bigint): Promise<ColdReturn[]> {
      const logs = await deps.chain.chain.getTransferLogs({
        tokens: [...tokenOf.keys()],
        senders: input.coldAddresses,
        fromBlock: from,
        toBlock: to,
      });
      const out: ColdReturn[] = [];
      for (const log of logs) {
        const token = tokenOf.get(getAddress(log.token));
        if (token === undefined || log.value <= 0n || !own.has(getAddress(log.to))) continue;
        out.push({ log, token, from: getAddress(log.from) });
      }
      return out;
    },
  };
}

/** Reads and stores confirmed blocks from the cursor on; returns the first block it did not store. */
async function scanConfirmed(
  deps: ColdReturnsDeps,
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
    const found = await scan.returnsIn(cursor.nextBlock, to);
    if (found.some((r) => r.log.blockNumber === to && r.log.blockHash.toLowerCase() !== end.hash.toLowerCase())) break;
    await storeReturns(deps, found);
    const next = { nextBlock: to + 1n, anchorHash: end.hash, range: null };
    if (!(await moveCursor(deps.db, { name: 'cold-returns', expected: cursor, next, now: deps.clock.now() }))) {
      // Another check moved it meanwhile; what this one stored was stored once all the same.
      const moved = await readCursor(deps.db, 'cold-returns');
      if (!moved) throw new Error('the cold-returns scan cursor disappeared');
      cursor = moved;
      continue;
    }
    cursor = next;
  }
  return cursor.nextBlock;
}

function behind(at: bigint, target: bigint): Error {
  return new Error(
    `custody check: the scan of what came back from the cold addresses is at block ${at}, ${target - at + 1n} blocks ` +
      'behind; it goes on from there at the next check',
  );
}

async function checkAnchor(deps: ColdReturnsDeps, cursor: ScanCursor): Promise<void> {
  if (cursor.anchorHash === null || cursor.nextBlock === 0n) return;
  const block = await deps.chain.chain.getBlock(cursor.nextBlock - 1n);
  if (block?.hash.toLowerCase() === cursor.anchorHash.toLowerCase()) return;
  throw new Error(
    `CUSTODY CHECK HALTED: block ${cursor.nextBlock - 1n} had hash ${cursor.anchorHash} when the cold-returns scan read it, ` +
      `and the chain now ${block ? `has ${block.hash}` : 'has no such block'}: a reorganisation deeper than the ` +
      `${deps.config.chainConfirmations} confirmation(s) waited for. The check stops until an operator has reconciled ` +
      "cold_returns with the chain and moved the 'cold-returns' row of chain_scan_cursors.",
  );
}

/** The stored cursor, or a new one at the first block that mined a transfer to a cold address; null when none has been. */
async function startingCursor(deps: ColdReturnsDeps): Promise<ScanCursor | null> {
  const stored = await readCursor(deps.db, 'cold-returns');
  if (stored) return stored;
  const first = await deps.db
    .selectFrom('hot_wallet_outbox')
    .select((eb) => eb.fn.min('block_number').as('block'))
    .where('purpose', '=', 'cold')
    .executeTakeFirst();
  if (first?.block === null || first?.block === undefined) return null;
  await insertCursor(deps.db, { name: 'cold-returns', nextBlock: BigInt(first.block), now: deps.clock.now() });
  return (await readCursor(deps.db, 'cold-returns')) ?? null;
}

async function storeReturns(deps: ColdReturnsDeps, found: readonly ColdReturn[]): Promise<void> {
  if (found.length === 0) return;
  await deps.db
    .insertInto('cold_returns')
    .values(
      found.map((r) => ({
        tx_hash: r.log.txHash.toLowerCase(),
        log_index: r.log.logIndex,
        token: r.token,
        from_address: r.from,
        to_address: getAddress(r.log.to),
        amount: String(r.log.value),
        block_number: r.log.blockNumber,
        found_at: deps.clock.now(),
      })),
    )
    .onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing())
    .execute();
}

async function storedSums(deps: ColdReturnsDeps): Promise<{ token: Token; from: string; amount: bigint }[]> {
  const { rows } = await sql<{ token: Token; from_address: string; amount: string }>`
    select token, from_address, sum(amount)::text as amount from cold_returns group by token, from_address`.execute(deps.db);
  return rows.map((r) => ({ token: r.token, from: r.from_address, amount: BigInt(r.amount) }));
}
