// Events are kept 30 days (DESIGN §13): older ones are deleted, a bounded page per round, with
// their deliveries and attempts.
import type { Events } from '../events/events.js';
import type { Job } from './job.js';

const PAGE = 500;

export function createEventRetentionJob({ events }: { events: Events }): Job {
  return {
    name: 'event-retention',
    run: () => events.deleteExpired(PAGE),
  };
}
