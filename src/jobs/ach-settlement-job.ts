// Settles due ACH transfers (or records their return); see fiat/ach-settlement.ts.
import type { FiatTransfers } from '../fiat/fiat-transfers.js';
import type { SandboxClock } from '../platform/clock.js';
import type { Job } from './job.js';

/** Transfers looked at per round; the rest wait for the next round. */
const BATCH = 100;

export function createAchSettlementJob({
  fiatTransfers,
  sandboxClock,
}: {
  fiatTransfers: FiatTransfers;
  sandboxClock: SandboxClock | null;
}): Job {
  return {
    name: 'ach-settlement',
    async run() {
      // Another process may have moved the sandbox clock.
      await sandboxClock?.refresh();
      return fiatTransfers.settleDue(BATCH);
    },
  };
}
