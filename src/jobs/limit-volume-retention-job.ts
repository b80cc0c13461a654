// The limits' volume buckets are read for at most 31 days (decision 0036): older ones are deleted,
// a bounded page per round.
import { pruneVolume } from '../compliance/limits/limits-repository.js';
import { BUCKETS_KEPT_MS } from '../compliance/limits/limit-windows.js';
import type { Job } from './job.js';

const PAGE = 1000;

export const limitVolumeRetentionJob: Job = {
  name: 'limit-volume-retention',
  run: (deps) => pruneVolume(deps.db, { before: new Date(deps.clock.now().getTime() - BUCKETS_KEPT_MS), limit: PAGE }),
};
