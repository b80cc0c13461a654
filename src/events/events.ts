// The events service (DESIGN §13, §21): the caller's event feed and webhook endpoints, built once
// by the composition root over exactly what they use.
import { EVENT_RETENTION_MS, listEvents, type EventView } from './events-service.js';
import { deleteEventsBefore } from './events-repository.js';
import { createEndpoint, deliveriesOf, endpointsOf, removeEndpoint } from './webhook-endpoints-service.js';
import type { AttemptRow, EndpointRow } from './webhook-endpoints-repository.js';
import type { DestinationGuard } from './destination-guard.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface EventsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  webhookSecrets: WebhookSecrets;
  webhookDestinations: DestinationGuard;
}

export interface Events {
  list(input: { accountId: number; after: string | undefined; limit: number }): Promise<{ events: EventView[]; nextCursor: string | null }>;
  createEndpoint(input: {
    accountId: number;
    url: string;
    events?: string[] | undefined;
  }): Promise<{ endpoint: EndpointRow; secret: string }>;
  endpointsOf(accountId: number): Promise<EndpointRow[]>;
  removeEndpoint(input: { accountId: number; id: string }): Promise<void>;
  deliveriesOf(input: {
    accountId: number;
    id: string;
    limit: number;
    before: string | undefined;
  }): Promise<{ attempts: AttemptRow[]; nextCursor: string | null }>;
  /** Deletes up to `limit` events older than the retention (DESIGN §13), with their deliveries; answers how many. */
  deleteExpired(limit: number): Promise<number>;
}

export function createEvents(deps: EventsDeps): Events {
  return {
    list: (input) => listEvents(deps, input),
    createEndpoint: (input) => createEndpoint(deps, input),
    endpointsOf: (accountId) => endpointsOf(deps, accountId),
    removeEndpoint: (input) => removeEndpoint(deps, input),
    deliveriesOf: (input) => deliveriesOf(deps, input),
    deleteExpired: (limit) => deleteEventsBefore(deps.db, { before: new Date(deps.clock.now().getTime() - EVENT_RETENTION_MS), limit }),
  };
}
