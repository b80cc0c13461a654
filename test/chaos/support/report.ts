// Each chaos test records what it did (operations, kills, restarts, fuzz cases) and the
// violations it found; the suite's teardown sums them into the one line the run ends with.
import fs from 'node:fs';

export interface ChaosCounts {
  operations?: number;
  kills?: number;
  restarts?: number;
  fuzzCases?: number;
  violations?: number;
}

export const COUNT_NAMES = ['operations', 'kills', 'restarts', 'fuzzCases', 'violations'] as const;

export function recordChaos(test: string, counts: ChaosCounts): void {
  const file = process.env.CHAOS_REPORT_FILE;
  if (!file) return;
  fs.appendFileSync(file, JSON.stringify({ test, ...counts }) + '\n');
}

export function readChaosReport(file: string): { rows: (ChaosCounts & { test: string })[]; totals: Required<ChaosCounts> } {
  const rows = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ChaosCounts & { test: string })
    : [];
  const totals = { operations: 0, kills: 0, restarts: 0, fuzzCases: 0, violations: 0 };
  for (const row of rows) for (const name of COUNT_NAMES) totals[name] += row[name] ?? 0;
  return { rows, totals };
}
