// Prints the run's seed and profile before the chaos tests start, and the summed counts after.
import { readChaosReport } from './report.js';

export function setup(): void {
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
