// SQL for the limits: one statement reads what a check needs (the accounts' ages, their operator
// overrides and the volume buckets of the windows), one writes the volume of any number of
// movements, one gives a failed movement's volume back. The caller holds the lock that serialises
// an account's movements on the rail (decision 0036): the read must come after it.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { LimitVolumeTable } from '../../db/schema.js';
import type { Trx } from '../../db/transaction.js';
import type { Asset } from '../../money/assets.js';
import { bucketStart, windowFrom, type Bucket, type BucketSpan } from './limit-windows.js';

/** What an operator set for one account and currency; null leaves that window at the default. */
export interface LimitOverride {
  day: bigint | null;
  month: bigint | null;
}

/** One account as a limit check sees it. */
export interface AccountStanding {
  createdAt: Date;
  overrides: Map<string, LimitOverride>;
  /** The buckets of both windows, per currency. */
  buckets: Map<string, Bucket[]>;
}

/** A movement's volume, counted in the buckets of `at`. */
export interface Volume {
  accountId: number;
  currency: Asset;
  amountMinor: bigint;
  at: Date;
}

type JsonRows = unknown[][] | string;

function rowsOf(value: JsonRows): unknown[][] {
  return typeof value === 'string' ? (JSON.parse(value) as unknown[][]) : value;
}

/** Which accounts' standing a read gives, with the buckets of `currencies` from the windows of `from` onwards. */
export interface StandingInput {
  accountIds: readonly number[];
  currencies: readonly Asset[];
  from: Date;
}

/** One row of standingQuery: an account's age, overrides and buckets (JSON). */
export interface StandingRow {
  id: number;
  created_at: Date;
  overrides: JsonRows;
  buckets: JsonRows;
}

/**
 * The standing of each account in `accountIds` (absent: no such account), with the buckets of
 * `currencies` that the windows of `from` onwards count. One round trip.
 */
export async function readStanding(db: Db | Trx, input: StandingInput): Promise<Map<number, AccountStanding>> {
  if (input.accountIds.length === 0) return new Map();
  return standingFrom((await standingQuery(input).execute(db)).rows);
}

/**
 * The statement readStanding runs, for a caller that reads it as part of one of its own (the
 * sandbox's card sends read it with what their recipients owe, decision 0065).
 */
export function standingQuery(input: StandingInput): RawBuilder<StandingRow> {
  const dayFrom = windowFrom(input.from, 'day');
  const monthFrom = windowFrom(input.from, 'month');
  // Each table is read once for all the accounts, grouped, not once per account: a small table
  // (no overrides, a new service's few buckets) is read whole, and every such scan asks the file
  // system for the table's size, which in PGlite is a call out of its engine (decision 0066).
  return sql<StandingRow>`
    select a.id, a.created_at, coalesce(o.rows, '[]'::json) as overrides, coalesce(v.rows, '[]'::json) as buckets
      from accounts a
      left join (select o.account_id, json_agg(json_build_array(o.currency, o.day_limit::text, o.month_limit::text)) as rows
                   from account_limit_overrides o
                  where o.account_id = any(${input.accountIds}::integer[])
                  group by o.account_id) o on o.account_id = a.id
      left join (select v.account_id,
                        json_agg(json_build_array(v.currency, v.span, (extract(epoch from v.starts_at) * 1000)::bigint::text, v.volume::text)) as rows
                   from limit_volume v
                  where v.account_id = any(${input.accountIds}::integer[])
                    and v.currency = any(${input.currencies}::text[])
                    and ((v.span = 'hour' and v.starts_at >= ${dayFrom}) or (v.span = 'day' and v.starts_at >= ${monthFrom}))
                  group by v.account_id) v on v.account_id = a.id
     where a.id = any(${input.accountIds}::integer[])`;
}

/** The standings standingQuery's rows describe. */
export function standingFrom(rows: readonly StandingRow[]): Map<number, AccountStanding> {
  const standing = new Map<number, AccountStanding>();
  for (const row of rows) {
    const overrides = new Map<string, LimitOverride>();
    for (const [currency, day, month] of rowsOf(row.overrides) as [string, string | null, string | null][])
      overrides.set(currency, { day: day === null ? null : BigInt(day), month: month === null ? null : BigInt(month) });
    const buckets = new Map<string, Bucket[]>();
    for (const [currency, span, startsMs, volume] of rowsOf(row.buckets) as [string, BucketSpan, string, string][]) {
      const list = buckets.get(currency) ?? [];
      list.push({ span, startsAt: new Date(Number(startsMs)), volume: BigInt(volume) });
      buckets.set(currency, list);
    }
    standing.set(row.id, { createdAt: new Date(row.created_at), overrides, buckets });
  }
  return standing;
}

type BucketRow = Selectable<LimitVolumeTable>;

/** The bucket rows the volumes add to, one per bucket (an upsert may touch a row once). */
function bucketRows(volumes: readonly Volume[]): BucketRow[] {
  const rows = new Map<string, BucketRow>();
  for (const v of volumes) {
    for (const span of ['hour', 'day'] as const) {
      const startsAt = bucketStart(v.at, span);
      const key = `${v.accountId}/${v.currency}/${span}/${startsAt.getTime()}`;
      const row = rows.get(key);
      if (row) row.volume += v.amountMinor;
      else rows.set(key, { account_id: v.accountId, currency: v.currency, span, starts_at: startsAt, volume: v.amountMinor });
    }
  }
  return [...rows.values()].sort(byLockOrder);
}

/**
 * The one order every writer of limit_volume locks its rows in: by account, currency, the hour
 * bucket before the day bucket, then start. Writers that do not hold the account's row lock (a
 * declined card giving its volume back beside a batch adding to the same sender's buckets) would
 * otherwise take the same two rows in opposite orders and deadlock.
 */
function byLockOrder(a: BucketRow, b: BucketRow): number {
  return (
    a.account_id - b.account_id ||
    (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0) ||
    SPAN_LOCK_RANK[a.span] - SPAN_LOCK_RANK[b.span] ||
    a.starts_at.getTime() - b.starts_at.getTime()
  );
}

const SPAN_LOCK_RANK: Record<BucketSpan, number> = { hour: 0, day: 1 };

function addVolumeQuery(db: Db | Trx, rows: readonly BucketRow[]) {
  return db
    .insertInto('limit_volume')
    .values(rows.map((r) => ({ ...r })))
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'currency', 'span', 'starts_at'])
        .doUpdateSet((eb) => ({ volume: eb('limit_volume.volume', '+', eb.ref('excluded.volume')) })),
    );
}

/** Adds the movements' volume to their buckets, in one statement. */
export async function addVolume(trx: Trx, volumes: readonly Volume[]): Promise<void> {
  const rows = bucketRows(volumes.filter((v) => v.amountMinor > 0n));
  if (rows.length > 0) await addVolumeQuery(trx, rows).execute();
}

/**
 * The same as a WITH clause of the ledger's statement (ledger-writes.ts `Alongside`): the name it
 * goes by and the rows it returns, or null when there is nothing to add.
 */
export function addVolumeClause(volumes: readonly Volume[]): { clause: RawBuilder<unknown>; name: string; rows: number } | null {
  const rows = bucketRows(volumes.filter((v) => v.amountMinor > 0n));
  if (rows.length === 0) return null;
  return {
    // Each column one array parameter: the same text for any number of buckets (decision 0049).
    clause: sql`limit_volume_added as (
      insert into limit_volume (account_id, currency, span, starts_at, volume)
      select * from unnest(${rows.map((r) => r.account_id)}::integer[], ${rows.map((r) => r.currency)}::text[],
                           ${rows.map((r) => r.span)}::text[], ${rows.map((r) => r.starts_at.toISOString())}::timestamptz[],
                           ${rows.map((r) => String(r.volume))}::bigint[])
      on conflict (account_id, currency, span, starts_at) do update set volume = limit_volume.volume + excluded.volume
      returning account_id)`,
    name: 'limit_volume_added',
    rows: rows.length,
  };
}

/**
 * Gives back the volume of a movement that failed (a declined card, a returned debit, a withdrawal
 * or payout that failed): taken from the buckets it was added to. Buckets already removed (older
 * than any window) have nothing left to give back.
 */
export async function giveVolumeBack(trx: Trx, volume: Volume): Promise<void> {
  if (volume.amountMinor <= 0n) return;
  const hour = bucketStart(volume.at, 'hour');
  const day = bucketStart(volume.at, 'day');
  // Locked first in the writers' order (byLockOrder: the hour bucket, then the day's), which an
  // UPDATE alone does not promise: it takes rows in whatever order its scan finds them.
  await sql`
    select 1 from limit_volume
     where account_id = ${volume.accountId} and currency = ${volume.currency}
       and ((span = 'hour' and starts_at = ${hour}) or (span = 'day' and starts_at = ${day}))
     order by case span when 'hour' then 0 else 1 end
       for update`.execute(trx);
  await trx
    .updateTable('limit_volume')
    .set((eb) => ({ volume: sql<bigint>`greatest(${eb.ref('volume')} - ${volume.amountMinor}, 0)` }))
    .where('account_id', '=', volume.accountId)
    .where('currency', '=', volume.currency)
    .where((eb) =>
      eb.or([eb.and([eb('span', '=', 'hour'), eb('starts_at', '=', hour)]), eb.and([eb('span', '=', 'day'), eb('starts_at', '=', day)])]),
    )
    .execute();
}

/** Removes buckets no window reads any more (started before `before`); at most `limit` rows. */
export async function pruneVolume(db: Db, input: { before: Date; limit: number }): Promise<number> {
  const result = await sql`
    delete from limit_volume where ctid in (select ctid from limit_volume where starts_at < ${input.before} limit ${input.limit})`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0n);
}

export async function findOverride(trx: Trx, accountId: number, currency: Asset): Promise<LimitOverride | null> {
  const row = await trx
    .selectFrom('account_limit_overrides')
    .select(['day_limit', 'month_limit'])
    .where('account_id', '=', accountId)
    .where('currency', '=', currency)
    .forUpdate()
    .executeTakeFirst();
  return row ? { day: row.day_limit, month: row.month_limit } : null;
}

/** Writes the override, or removes it when both windows are back at the default. */
export async function saveOverride(
  trx: Trx,
  input: { accountId: number; currency: Asset; override: LimitOverride; at: Date },
): Promise<void> {
  if (input.override.day === null && input.override.month === null) {
    await trx
      .deleteFrom('account_limit_overrides')
      .where('account_id', '=', input.accountId)
      .where('currency', '=', input.currency)
      .execute();
    return;
  }
  await trx
    .insertInto('account_limit_overrides')
    .values({
      account_id: input.accountId,
      currency: input.currency,
      day_limit: input.override.day,
      month_limit: input.override.month,
      updated_at: input.at,
    })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'currency'])
        .doUpdateSet({ day_limit: input.override.day, month_limit: input.override.month, updated_at: input.at }),
    )
    .execute();
}
