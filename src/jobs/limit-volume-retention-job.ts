// The limits' volume buckets are read for at most 31 days (decision 0036): older ones are deleted,
// a bounded page per round.
import { pruneVolume } from '../compliance/limits/limits-repository.js';
import { BUCKETS_KEPT_MS } from '../compliance/limits/limit-windows.js';
import type { Job } from './job.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** What a round of this job uses. */
export type LimitVolumeRetentionJobDeps = { clock: Clock; db: Db };

const PAGE = 1000;

export const limitVolumeRetentionJob: Job<LimitVolumeRetentionJobDeps> = {
  name: 'limit-volume-retention',
  run: (deps) => pruneVolume(deps.db, { before: new Date(deps.clock.now().getTime() - BUCKETS_KEPT_MS), limit: PAGE }),
};
