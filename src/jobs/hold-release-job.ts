// Ends the holds on card money that are due (fiat/card-risk/hold-release.ts).
import { createHoldRelease } from '../fiat/card-risk/hold-release.js';
import type { JobOver } from './job.js';
import type { Db } from '../db/database.js';
import type { Clock, SandboxClock } from '../platform/clock.js';

/** What a round of this job uses. */
export type HoldReleaseJobDeps = { clock: Clock; db: Db; sandboxClock: SandboxClock | null };

const BATCH = 200;

export const holdReleaseJob: JobOver<HoldReleaseJobDeps> = {
  name: 'hold-release',
  async run(deps) {
    await deps.sandboxClock?.refresh();
    return createHoldRelease({ db: deps.db, clock: deps.clock }).releaseDue(BATCH);
  },
};
