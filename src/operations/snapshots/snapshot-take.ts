// One take of the console's snapshots (DESIGN §18): what the charts draw, recorded every
// SNAPSHOT_INTERVAL_MS by whichever process runs the job first. A take belongs to a slot (the
// interval's start, by the service's clock); a slot that has rows is taken, and the rows' primary
// key makes two processes racing for one slot write it once. Rows older than SNAPSHOT_RETENTION_MS
// are deleted a bounded page per round.
import { sql } from 'kysely';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Db } from '../../db/database.js';
import { TOKENS } from '../../money/assets.js';
import type { Clock } from '../../platform/clock.js';

export const SNAPSHOT_INTERVAL_MS = 5 * 60_000;
/** The 30-day chart's reach, and a day more. */
export const SNAPSHOT_RETENTION_MS = 31 * 86_400_000;
/** Old rows deleted per round: a bounded statement. */
const RETENTION_PAGE = 1000;

export type SnapshotMetric = 'hot_wallet' | 'transfer_volume' | 'webhook_failures';
export type SnapshotRail = 'chain' | 'fiat' | 'stablecoin' | 'webhooks';

export interface SnapshotRow {
  metric: SnapshotMetric;
  rail: SnapshotRail;
  /** A token or currency; empty for webhook failures. */
  asset: string;
  value: bigint;
}

export type SnapshotTakeDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock };

/** The slot a time falls in: the start of its interval. */
export function slotOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / SNAPSHOT_INTERVAL_MS) * SNAPSHOT_INTERVAL_MS);
}

/** Takes this slot's snapshot unless a process has; deletes expired rows. Returns the rows written and deleted. */
export async function takeSnapshotIfDue(deps: SnapshotTakeDeps): Promise<number> {
  const now = deps.clock.now();
  const slot = slotOf(now);
  const deleted = await deleteExpired(deps.db, new Date(now.getTime() - SNAPSHOT_RETENTION_MS));
  const taken = await deps.db.selectFrom('snapshots').select('taken_at').where('taken_at', '=', slot).limit(1).executeTakeFirst();
  if (taken) return deleted;
  const rows = await readMetrics(deps, { from: new Date(slot.getTime() - SNAPSHOT_INTERVAL_MS), to: slot });
  const written = await deps.db
    .insertInto('snapshots')
    .values(rows.map((row) => ({ taken_at: slot, ...row })))
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(written.numInsertedOrUpdatedRows ?? 0n) + deleted;
}

/** The hot wallet now, and the volume and webhook failures of [from, to): the interval just ended. */
export async function readMetrics(deps: SnapshotTakeDeps, window: { from: Date; to: Date }): Promise<SnapshotRow[]> {
  const rows: SnapshotRow[] = [];
  for (const token of TOKENS) {
    const value = await deps.chain.chain.getTokenBalance({ token: deps.chain.tokens[token], holder: deps.wallets.hotWallet.address });
    rows.push({ metric: 'hot_wallet', rail: 'chain', asset: token, value });
  }
  const { rows: volumes } = await sql<{ rail: 'fiat' | 'stablecoin'; asset: string; value: string }>`
    select 'fiat' as rail, currency as asset, sum(amount)::text as value from fiat_transfers
     where created_at >= ${window.from} and created_at < ${window.to} and status in ('pending', 'completed') group by currency
    union all
    select 'stablecoin', currency, sum(amount)::text from stablecoin_transfers
     where created_at >= ${window.from} and created_at < ${window.to} group by currency`.execute(deps.db);
  for (const v of volumes) rows.push({ metric: 'transfer_volume', rail: v.rail, asset: v.asset, value: BigInt(v.value) });
  const failures = await sql<{ n: string }>`
    select count(*)::text as n from webhook_attempts
     where not succeeded and attempted_at >= ${window.from} and attempted_at < ${window.to}`.execute(deps.db);
  rows.push({ metric: 'webhook_failures', rail: 'webhooks', asset: '', value: BigInt(failures.rows[0]?.n ?? '0') });
  return rows;
}

async function deleteExpired(db: Db, before: Date): Promise<number> {
  const result = await sql`
    delete from snapshots where ctid in (select ctid from snapshots where taken_at < ${before} limit ${RETENTION_PAGE})`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
