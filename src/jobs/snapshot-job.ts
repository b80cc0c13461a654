// The console's snapshots (operations/snapshots/): every 5 minutes one take across all processes,
// on the jobs' tick; the chart's rows older than 31 days go, a page per round.
import type { Snapshots } from '../operations/snapshots/snapshots-service.js';
import type { Job } from './job.js';

/** What a round of this job uses. */
export type SnapshotJobDeps = { snapshots: Snapshots };

export const snapshotJob: Job<SnapshotJobDeps> = {
  name: 'snapshots',
  run: (deps) => deps.snapshots.takeIfDue(),
};
