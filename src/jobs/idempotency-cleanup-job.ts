// Forgets Idempotency-Key answers once they are older than a retry could be (48 hours).
import type { Db } from '../db/database.js';
import { deleteExpiredKeys } from '../platform/idempotency-store.js';
import type { Job } from './job.js';

const IDEMPOTENCY_RETENTION_MS = 48 * 3600 * 1000;

/** What a round of this job uses. */
export type IdempotencyCleanupJobDeps = { db: Db };

export const idempotencyCleanupJob: Job<IdempotencyCleanupJobDeps> = {
  name: 'idempotency-cleanup',
  run: (deps) => deleteExpiredKeys(deps.db, new Date(Date.now() - IDEMPOTENCY_RETENTION_MS), 500),
};
