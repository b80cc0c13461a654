// Pays received fiat money out to connected payout accounts; see fiat/payout-service.ts.
import type { Payouts } from '../fiat/payouts.js';
import type { SandboxClock } from '../platform/clock.js';
import type { Job } from './job.js';

const BATCH = 100;

export function createPayoutJob({ payouts, sandboxClock }: { payouts: Payouts; sandboxClock: SandboxClock | null }): Job {
  return {
    name: 'payouts',
    async run() {
      await sandboxClock?.refresh();
      const started = await payouts.start(BATCH);
      const sent = await payouts.send(BATCH);
      return started + sent;
    },
  };
}
