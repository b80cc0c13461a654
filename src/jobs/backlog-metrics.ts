// Backlog gauges, read when /metrics is scraped (one short query for the database's, shared by the
// gauges of one scrape, and one eth_blockNumber with a short timeout for the deposit lag). A value
// that cannot be read in that scrape is NaN, never a stale number or a failed scrape.
import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import type { ChainAdapter } from '../adapters/chain/chain-adapter.js';
import type { Clock } from '../platform/clock.js';
import { readCursor } from '../platform/scan-cursors.js';
import { withTimeout } from '../platform/with-timeout.js';

/** How long one scrape waits for the chain's head. */
const CHAIN_HEAD_TIMEOUT_MS = 2000;
/** One scrape's gauges share one read; reads further apart than this are separate. */
const SNAPSHOT_REUSE_MS = 1000;

interface BacklogSnapshot {
  withdrawalsPending: number;
  outboxUnfinished: number;
  outboxOldestAgeSeconds: number;
  fiatProcessing: number;
  webhooksPending: number;
  depositLagBlocks: number;
}

export function registerBacklogMetrics(registry: Registry, deps: { db: Db; chain: ChainAdapter; clock: Clock }): void {
  let last: { at: number; snapshot: Promise<BacklogSnapshot> } | null = null;
  const snapshot = () => {
    const now = Date.now();
    if (!last || now - last.at > SNAPSHOT_REUSE_MS) last = { at: now, snapshot: readSnapshot(deps) };
    return last.snapshot;
  };
  const gauge = (name: string, help: string, read: (s: BacklogSnapshot) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(read(await snapshot()));
      },
    });
  gauge('peerpay_withdrawals_pending', 'Withdrawals not yet complete or failed', (s) => s.withdrawalsPending);
  gauge('peerpay_outbox_unfinished', 'Hot wallet transactions signed or broadcast, not yet final', (s) => s.outboxUnfinished);
  gauge(
    'peerpay_outbox_oldest_unfinished_age_seconds',
    'Age of the oldest hot wallet transaction not yet final (0 when none)',
    (s) => s.outboxOldestAgeSeconds,
  );
  gauge('peerpay_fiat_transfers_processing', 'Fiat transfers whose charge is under way (processing)', (s) => s.fiatProcessing);
  gauge('peerpay_webhook_deliveries_pending', 'Webhook deliveries not yet delivered, given up or cancelled', (s) => s.webhooksPending);
  gauge(
    'peerpay_deposit_lag_blocks',
    "Blocks the deposit watcher has not read yet: the chain's head minus the last block read",
    (s) => s.depositLagBlocks,
  );
}

async function readSnapshot(deps: { db: Db; chain: ChainAdapter; clock: Clock }): Promise<BacklogSnapshot> {
  const [database, depositLagBlocks] = await Promise.all([readDatabaseBacklog(deps), readDepositLag(deps)]);
  return { ...database, depositLagBlocks };
}

async function readDatabaseBacklog(deps: { db: Db; clock: Clock }): Promise<Omit<BacklogSnapshot, 'depositLagBlocks'>> {
  try {
    const { rows } = await sql<{ withdrawals: string; outbox: string; oldest: Date | string | null; fiat: string; webhooks: string }>`
      select
        (select count(*) from withdrawals where status = 'pending')::text as withdrawals,
        (select count(*) from hot_wallet_outbox where status in ('signed', 'broadcast'))::text as outbox,
        (select min(created_at) from hot_wallet_outbox where status in ('signed', 'broadcast')) as oldest,
        (select count(*) from fiat_transfers where status = 'processing')::text as fiat,
        (select count(*) from webhook_deliveries where status = 'pending')::text as webhooks
    `.execute(deps.db);
    const row = rows[0]!;
    const oldestMs = row.oldest === null ? null : new Date(row.oldest).getTime();
    return {
      withdrawalsPending: Number(row.withdrawals),
      outboxUnfinished: Number(row.outbox),
      outboxOldestAgeSeconds: oldestMs === null ? 0 : Math.max(0, (deps.clock.now().getTime() - oldestMs) / 1000),
      fiatProcessing: Number(row.fiat),
      webhooksPending: Number(row.webhooks),
    };
  } catch {
    return { withdrawalsPending: NaN, outboxUnfinished: NaN, outboxOldestAgeSeconds: NaN, fiatProcessing: NaN, webhooksPending: NaN };
  }
}

/** head − (the cursor's next block − 1); NaN before the watcher's first round or when either cannot be read. */
async function readDepositLag(deps: { db: Db; chain: ChainAdapter }): Promise<number> {
  try {
    const [cursor, head] = await Promise.all([
      readCursor(deps.db, 'deposits'),
      withTimeout(deps.chain.getBlockNumber(), CHAIN_HEAD_TIMEOUT_MS, 'the chain'),
    ]);
    if (!cursor) return NaN;
    const lag = head - (cursor.nextBlock - 1n);
    return Number(lag < 0n ? 0n : lag);
  } catch {
    return NaN;
  }
}
