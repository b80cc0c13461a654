// The reconciliation poll of WALLET_PROVIDER=circle (DESIGN §19): credits the inbound transactions
// whose notification was lost, late or refused. It takes the place of the chain-log watcher for
// users' Circle wallets, with the watcher's discipline: bounded rounds (at most MAX_PAGES_PER_ROUND
// pages of PAGE_SIZE), the place kept in the database after every page (compare-and-set, so a round
// with a stale view changes nothing and stops), and one round at a time across the fleet (a lease
// on the cursor's row; each deposit's unique Circle id keeps the books right even if two overlap).
//
// A pass reads GET /v1/w3s/transactions?txType=INBOUND&from=<from> to its end, page by page. The
// next pass does not start where this one ended but an OVERLAP_MS before the newest transaction it
// saw, so that one listed late at a page's edge is still read; and never after a transaction that
// is still under way (or complete but not yet on peerpay's chain), which a later pass must see
// again to credit. Such a transaction holds the place for at most MAX_HOLD_MS: one stuck at Circle
// longer is logged and left to its notification, so that it cannot pin every later pass.
import type { FastifyBaseLogger } from 'fastify';
import type { CircleApi, CircleTransaction } from '../../adapters/circle/circle-port.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import type { CircleDeposits } from './circle-deposits.js';
import {
  insertCircleCursor,
  leaseCircleCursor,
  moveCircleCursor,
  releaseCircleCursor,
  type CircleInboundCursor,
} from './circle-deposits-repository.js';
import { firstAccountCreatedAt } from './deposits-repository.js';

/** Circle's largest page. */
export const PAGE_SIZE = 50;
/** Pages per round; the rest of a pass waits for the next round. */
export const MAX_PAGES_PER_ROUND = 10;
/** How far before the newest transaction a pass saw the next one starts. */
export const OVERLAP_MS = 2 * 60_000;
/** The longest a transaction under way holds the poll's place. */
export const MAX_HOLD_MS = 7 * 24 * 3_600_000;
/** A round's lease on the cursor; longer than a round of MAX_PAGES_PER_ROUND pages takes. */
const LEASE_MS = 2 * 60_000;
/** The first pass starts this long before the first account (clock differences between Circle and the database). */
const START_MARGIN_MS = 3_600_000;

type PollDeps = { db: Db; circle: Pick<CircleApi, 'listTransactions'>; deposits: CircleDeposits; clock: Clock };

export interface CirclePollRound {
  /** Another process holds the round's lease. */
  skipped: boolean;
  /** Deposits this round recorded (credited or blocked). */
  credited: number;
  pages: number;
  /** The pass reached the end of Circle's list in this round. */
  passEnded: boolean;
}

export interface CircleDepositPoll {
  /** One bounded round. */
  poll(log?: FastifyBaseLogger): Promise<CirclePollRound>;
}

export function createCircleDepositPoll(deps: PollDeps): CircleDepositPoll {
  return { poll: (log) => pollCircleDeposits(deps, log) };
}

export async function pollCircleDeposits(deps: PollDeps, log?: FastifyBaseLogger): Promise<CirclePollRound> {
  const now = deps.clock.now();
  const lease = { now, leaseMs: LEASE_MS };
  let cursor = await leaseCircleCursor(deps.db, lease);
  if (!cursor) {
    await insertFirstCursor(deps);
    cursor = await leaseCircleCursor(deps.db, lease);
  }
  if (!cursor) return { skipped: true, credited: 0, pages: 0, passEnded: false };
  try {
    return await readPages(deps, cursor, log);
  } finally {
    await releaseCircleCursor(deps.db, new Date(now.getTime() + LEASE_MS));
  }
}

/** Unless there is one: the first pass reads from before the first account (none before it has a wallet). */
async function insertFirstCursor(deps: PollDeps): Promise<void> {
  const first = await firstAccountCreatedAt(deps.db);
  const start = (first ?? deps.clock.now()).getTime() - START_MARGIN_MS;
  await insertCircleCursor(deps.db, { from: new Date(start), now: deps.clock.now() });
}

async function readPages(deps: PollDeps, start: CircleInboundCursor, log?: FastifyBaseLogger): Promise<CirclePollRound> {
  let cursor = start;
  let credited = 0;
  let pages = 0;
  while (pages < MAX_PAGES_PER_ROUND) {
    const page = await deps.circle.listTransactions({
      txType: 'INBOUND',
      from: cursor.from,
      pageSize: PAGE_SIZE,
      ...(cursor.pageAfter === null ? {} : { pageAfter: cursor.pageAfter }),
    });
    pages++;
    const seen = await recordPage(deps, page.transactions, log);
    credited += seen.credited;
    const within: CircleInboundCursor = {
      ...cursor,
      pageAfter: page.pageAfter,
      holdAt: earlier(cursor.holdAt, seen.holdAt),
      newest: later(cursor.newest, seen.newest),
    };
    const ended = page.pageAfter === null || page.transactions.length === 0;
    const next = ended ? nextPass(within) : within;
    if (!(await moveCircleCursor(deps.db, { expected: cursor, next, now: deps.clock.now() }))) break;
    cursor = next;
    if (ended) return { skipped: false, credited, pages, passEnded: true };
  }
  return { skipped: false, credited, pages, passEnded: false };
}

/** Where the next pass reads from: before what must be seen again, never before this pass's own start. */
function nextPass(pass: CircleInboundCursor): CircleInboundCursor {
  const base = pass.holdAt ?? pass.newest;
  const from = base === null ? pass.from : new Date(Math.max(pass.from.getTime(), base.getTime() - OVERLAP_MS));
  return { from, pageAfter: null, holdAt: null, newest: null };
}

/** Records the page's transactions one by one; a failure (screening, the chain) ends the round before its place moves. */
async function recordPage(deps: PollDeps, transactions: readonly CircleTransaction[], log?: FastifyBaseLogger) {
  const holdSince = deps.clock.now().getTime() - MAX_HOLD_MS;
  let credited = 0;
  let holdAt: Date | null = null;
  let newest: Date | null = null;
  for (const tx of transactions) {
    newest = later(newest, tx.createDate);
    const outcome = await deps.deposits.record(tx);
    if (outcome === 'credited' || outcome === 'blocked') credited++;
    if (outcome !== 'under_way' && outcome !== 'not_on_chain') continue;
    if (tx.createDate.getTime() >= holdSince) holdAt = earlier(holdAt, tx.createDate);
    else
      log?.warn(
        { circleTransaction: tx.id, state: tx.state, outcome },
        'circle deposit poll: no longer waiting for an old inbound transaction',
      );
  }
  return { credited, holdAt, newest };
}

function earlier(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() <= b.getTime() ? a : b;
}

function later(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.getTime() >= b.getTime() ? a : b;
}
