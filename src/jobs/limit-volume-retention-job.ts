// The limits' volume buckets are read for at most 31 days (decision 0036): older ones are deleted,
// a bounded page per round.
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Job } from './job.js';

const PAGE = 1000;

export function createLimitVolumeRetentionJob({ limits }: { limits: Pick<AccountLimits, 'pruneVolume'> }): Job {
  return { name: 'limit-volume-retention', run: () => limits.pruneVolume(PAGE) };
}
