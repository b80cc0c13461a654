// Events are kept 30 days (DESIGN §13): older ones are deleted, a bounded page per round, with
// their deliveries and attempts.
import { deleteEventsBefore } from '../events/events-repository.js';
import { EVENT_RETENTION_MS } from '../events/events-service.js';
import type { Job } from './job.js';

const PAGE = 500;

export const eventRetentionJob: Job = {
  name: 'event-retention',
  run: (deps) => deleteEventsBefore(deps.db, { before: new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS), limit: PAGE }),
};
