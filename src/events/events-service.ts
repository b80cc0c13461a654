// GET /events: the caller's events, oldest first, from a cursor (the last event id the client saw).
import { AppError } from '../platform/errors.js';
import { findEventPosition, listEventsAfter, settledHorizon, START, type EventPosition } from './events-repository.js';
import type { Db } from '../db/database.js';

export interface EventView {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
}

/** Events are kept this long (DESIGN §13); the retention job deletes older ones. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

export async function listEvents(
  deps: { db: Db },
  input: { accountId: number; after: string | undefined; limit: number },
): Promise<{ events: EventView[]; nextCursor: string | null }> {
  let after: EventPosition = START;
  if (input.after !== undefined) {
    // Only the caller's own events name a position: another account's id is as unknown as a made-up one.
    const position = await findEventPosition(deps.db, { accountId: input.accountId, id: input.after });
    if (position === undefined) {
      throw new AppError('invalid_request', 'after names none of your events (events are kept 30 days); omit it to start from the oldest.');
    }
    after = position;
  }
  const horizon = await settledHorizon(deps.db);
  const rows = await listEventsAfter(deps.db, { accountId: input.accountId, after, horizon, limit: input.limit });
  const events = rows.map((r) => ({ id: r.id, type: r.type, createdAt: r.createdAt.toISOString(), data: r.data }));
  return { events, nextCursor: events.length > 0 ? events[events.length - 1]!.id : (input.after ?? null) };
}
