// Settles due ACH transfers (or records their return); see fiat/ach-settlement.ts.
import { settleDueTransfers } from '../fiat/ach-settlement.js';
import type { JobOver } from './job.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { Db } from '../db/database.js';
import type { Clock, SandboxClock } from '../platform/clock.js';

/** What a round of this job uses. */
export type AchSettlementJobDeps = { clock: Clock; db: Db; processor: PaymentProcessor; sandboxClock: SandboxClock | null };

/** Transfers looked at per round; the rest wait for the next round. */
const BATCH = 100;

export const achSettlementJob: JobOver<AchSettlementJobDeps> = {
  name: 'ach-settlement',
  async run(deps) {
    // Another process may have moved the sandbox clock.
    await deps.sandboxClock?.refresh();
    return settleDueTransfers(deps, BATCH);
  },
};
