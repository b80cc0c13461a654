// Ends the holds on card money that are due (fiat/card-risk/hold-release.ts).
import { createHoldRelease } from '../fiat/card-risk/hold-release.js';
import type { Job } from './job.js';

const BATCH = 200;

export const holdReleaseJob: Job = {
  name: 'hold-release',
  async run(deps) {
    await deps.sandboxClock?.refresh();
    return createHoldRelease({ db: deps.db, clock: deps.clock }).releaseDue(BATCH);
  },
};
