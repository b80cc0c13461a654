// How big the group commit's batches were during a load (bench:profile): the histogram peerpay
// keeps for /metrics (`peerpay_group_commit_batch_size`, decision 0018), read before and after, so
// that what a setting (GROUP_COMMIT_CONCURRENCY, say) does to the batches is seen beside the CPU
// it costs. Every group commit of the process counts in it (transfers, card sends and credits).
import type { Metrics } from '../src/platform/metrics.js';

interface Counts {
  /** Batches and their members, by how each batch ended. */
  byEnding: Map<string, { batches: number; members: number }>;
}

export async function batchCounts(metrics: Metrics): Promise<Counts> {
  const byEnding = new Map<string, { batches: number; members: number }>();
  for (const value of (await metrics.groupCommitBatches.get()).values) {
    const ending = String(value.labels.ending ?? '');
    const entry = byEnding.get(ending) ?? { batches: 0, members: 0 };
    if (value.metricName?.endsWith('_count')) entry.batches += value.value;
    else if (value.metricName?.endsWith('_sum')) entry.members += value.value;
    else continue;
    byEnding.set(ending, entry);
  }
  return { byEnding };
}

/** The summary's lines: batches per ending during the load, and their mean size. */
export function batchSizesTable(before: Counts, after: Counts, answers: number): string[] {
  const rows: string[] = [];
  for (const [ending, a] of after.byEnding) {
    const b = before.byEnding.get(ending) ?? { batches: 0, members: 0 };
    const batches = a.batches - b.batches;
    const members = a.members - b.members;
    if (batches === 0) continue;
    rows.push(
      `| ${ending} | ${batches} | ${members} | ${(members / batches).toFixed(1)} | ${answers > 0 ? (batches / answers).toFixed(3) : '–'} |`,
    );
  }
  if (rows.length === 0) return [];
  return [
    '',
    '## Group-commit batches during the load',
    '',
    '| Ending | Batches | Members | Members per batch | Batches per 2xx answer |',
    '|---|---:|---:|---:|---:|',
    ...rows,
  ];
}
