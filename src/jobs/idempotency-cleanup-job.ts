// Forgets Idempotency-Key answers once they are older than a retry could be (48 hours).
import type { IdempotencyStore } from '../platform/idempotency-store.js';
import type { Job } from './job.js';

const IDEMPOTENCY_RETENTION_MS = 48 * 3600 * 1000;

export function createIdempotencyCleanupJob({ idempotency }: { idempotency: Pick<IdempotencyStore, 'deleteExpired'> }): Job {
  return {
    name: 'idempotency-cleanup',
    run: () => idempotency.deleteExpired(new Date(Date.now() - IDEMPOTENCY_RETENTION_MS), 500),
  };
}
