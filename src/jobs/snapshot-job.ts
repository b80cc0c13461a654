// The console's snapshots (operations/snapshots/): every 5 minutes one take across all processes,
// on the jobs' tick; the charts' rows older than 31 days go, a page per round.
import type { Snapshots } from '../operations/snapshots/snapshots-service.js';
import type { Job } from './job.js';

export function createSnapshotJob({ snapshots }: { snapshots: Snapshots }): Job {
  return { name: 'snapshots', run: () => snapshots.takeIfDue() };
}
