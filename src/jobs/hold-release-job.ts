// Ends the holds on card money that are due (fiat/card-risk/hold-release.ts).
import type { HoldRelease } from '../fiat/card-risk/hold-release.js';
import type { SandboxClock } from '../platform/clock.js';
import type { Job } from './job.js';

const BATCH = 200;

export function createHoldReleaseJob({ holdRelease, sandboxClock }: { holdRelease: HoldRelease; sandboxClock: SandboxClock | null }): Job {
  return {
    name: 'hold-release',
    async run() {
      await sandboxClock?.refresh();
      return holdRelease.releaseDue(BATCH);
    },
  };
}
