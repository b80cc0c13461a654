// Builds dist/ when stale, prints the run's seed and profile before the chaos tests start, and the summed counts after.
import { ensureBuilt } from '../../helpers/built-service.js';
import { readChaosReport } from './report.js';

export async function setup(): Promise<void> {
  // Every chaos process runs dist/main.js, as npm start does: built by npm ci, again here if older than src/.
  await ensureBuilt();
  console.log(
    `chaos: seed ${process.env.CHAOS_SEED}, profile ${process.env.CHAOS_PROFILE} (replay with CHAOS_SEED=${process.env.CHAOS_SEED})`,
  );
}

export function teardown(): void {
  const { rows, totals } = readChaosReport(process.env.CHAOS_REPORT_FILE!);
  for (const row of rows) console.log(`chaos: ${JSON.stringify(row)}`);
  console.log(
    `chaos: seed ${process.env.CHAOS_SEED}: ${totals.operations} operations, ${totals.kills} kills, ${totals.restarts} restarts, ` +
      `${totals.fuzzCases} fuzz cases, ${totals.violations} violations`,
  );
}
