// Settles due ACH transfers (or records their return); see fiat/ach-settlement.ts.
import { settleDueTransfers } from '../fiat/ach-settlement.js';
import type { Job } from './job.js';

/** Transfers looked at per round; the rest wait for the next round. */
const BATCH = 100;

export const achSettlementJob: Job = {
  name: 'ach-settlement',
  async run(deps) {
    // Another process may have moved the sandbox clock.
    await deps.sandboxClock?.refresh();
    return settleDueTransfers(deps, BATCH);
  },
};
