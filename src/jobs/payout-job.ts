// Pays received fiat money out to connected payout accounts; see fiat/payout-service.ts.
import { sendPayouts, startPayouts } from '../fiat/payout-service.js';
import type { Job } from './job.js';

const BATCH = 100;

export const payoutJob: Job = {
  name: 'payouts',
  async run(deps) {
    await deps.sandboxClock?.refresh();
    const started = await startPayouts(deps, BATCH);
    const sent = await sendPayouts(deps, BATCH);
    return started + sent;
  },
};
