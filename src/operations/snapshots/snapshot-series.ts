// The snapshots as the console's charts draw them: per metric, rail and asset, bucketed over a
// window. Volume and failures are summed per bucket (each take counted the 5 minutes before it);
// the hot wallet is its last reading in the bucket. A bucket without a take has no point.
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SnapshotMetric, SnapshotRail } from './snapshot-take.js';

export interface SeriesPoint {
  /** The bucket's start. */
  at: Date;
  value: bigint;
}

export interface Series {
  metric: SnapshotMetric;
  rail: SnapshotRail;
  asset: string;
  points: SeriesPoint[];
}

export interface SeriesQuery {
  metric: SnapshotMetric;
  from: Date;
  to: Date;
  bucketMs: number;
}

/** Every series of one metric in [from, to), oldest bucket first. At most (to - from) / bucketMs points per series. */
export async function readSeries(db: Db, query: SeriesQuery): Promise<Series[]> {
  const bucketSeconds = query.bucketMs / 1000;
  const aggregate = query.metric === 'hot_wallet' ? sql`(array_agg(value order by taken_at desc))[1]` : sql`sum(value)`;
  const { rows } = await sql<{ rail: SnapshotRail; asset: string; bucket: string; value: string }>`
    select rail, asset, (floor(extract(epoch from taken_at) / ${bucketSeconds}) * ${bucketSeconds})::bigint::text as bucket,
           ${aggregate}::text as value
      from snapshots
     where metric = ${query.metric} and taken_at >= ${query.from} and taken_at < ${query.to}
     group by rail, asset, 3
     order by rail, asset, 3`.execute(db);
  const series = new Map<string, Series>();
  for (const row of rows) {
    const key = `${row.rail}:${row.asset}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { metric: query.metric, rail: row.rail, asset: row.asset, points: [] }));
    s.points.push({ at: new Date(Number(row.bucket) * 1000), value: BigInt(row.value) });
  }
  return [...series.values()];
}
