// Events are kept 30 days (DESIGN §13): older ones are deleted, a bounded page per round, with
// their deliveries and attempts.
import { deleteEventsBefore } from '../events/events-repository.js';
import { EVENT_RETENTION_MS } from '../events/events-service.js';
import type { JobOver } from './job.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

/** What a round of this job uses. */
export type EventRetentionJobDeps = { clock: Clock; db: Db };

const PAGE = 500;

export const eventRetentionJob: JobOver<EventRetentionJobDeps> = {
  name: 'event-retention',
  run: (deps) => deleteEventsBefore(deps.db, { before: new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS), limit: PAGE }),
};
