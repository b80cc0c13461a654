// POST/GET/DELETE /webhook-endpoints and GET /webhook-endpoints/{id}/deliveries (DESIGN §13).
// Every read names the caller's account: another account's endpoint is "not found".
import { AppError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { ForbiddenDestination } from './destination-guard.js';
import { EVENT_TYPES, isEventType, type EventType } from './event-types.js';
import {
  countEndpointsForUpdate,
  deleteEndpoint,
  findEndpoint,
  insertEndpoint,
  listAttempts,
  listEndpoints,
  type AttemptRow,
  type EndpointRow,
} from './webhook-endpoints-repository.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { DestinationGuard } from './destination-guard.js';
import type { WebhookSecrets } from './webhook-secrets.js';
import type { Clock } from '../platform/clock.js';

type EndpointDeps = { db: Db; clock: Clock; config: Config; webhookSecrets: WebhookSecrets; webhookDestinations: DestinationGuard };

const MAX_URL_LENGTH = 2048;

export async function createEndpoint(
  deps: EndpointDeps,
  input: { accountId: number; url: string; events?: string[] | undefined },
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const url = await checkUrl(deps, input.url);
  const events = input.events === undefined ? null : eventsOf(input.events);
  const endpoint: EndpointRow = {
    id: newId('we'),
    accountId: input.accountId,
    url,
    events,
    secretSalt: deps.webhookSecrets.newSalt(),
    status: 'enabled',
    createdAt: deps.clock.now(),
  };
  const max = deps.config.webhooks.maxEndpointsPerAccount;
  await deps.db.transaction().execute(async (trx) => {
    if ((await countEndpointsForUpdate(trx, input.accountId)) >= max) {
      throw new AppError('limit_reached', `An account has at most ${max} webhook endpoints; delete one first.`);
    }
    await insertEndpoint(trx, endpoint);
  });
  return { endpoint, secret: deps.webhookSecrets.secretFor(endpoint.secretSalt) };
}

export function endpointsOf(deps: { db: Db; config: Config }, accountId: number): Promise<EndpointRow[]> {
  return listEndpoints(deps.db, accountId, deps.config.webhooks.maxEndpointsPerAccount);
}

export async function removeEndpoint(deps: { db: Db; clock: Clock }, input: { accountId: number; id: string }): Promise<void> {
  const now = deps.clock.now();
  const deleted = await deps.db.transaction().execute((trx) => deleteEndpoint(trx, { ...input, now }));
  if (!deleted) throw notFound();
}

export async function deliveriesOf(
  deps: { db: Db },
  input: { accountId: number; id: string; limit: number; before: string | undefined },
): Promise<{ attempts: AttemptRow[]; nextCursor: string | null }> {
  if (!(await findEndpoint(deps.db, input))) throw notFound();
  const beforeId = input.before === undefined ? null : BigInt(input.before);
  const attempts = await listAttempts(deps.db, { endpointId: input.id, beforeId, limit: input.limit });
  return { attempts, nextCursor: attempts.length === input.limit ? String(attempts[attempts.length - 1]!.id) : null };
}

function notFound(): AppError {
  return new AppError('not_found', 'You have no webhook endpoint with this id.');
}

function eventsOf(events: string[]): EventType[] {
  const unknown = events.find((e) => !isEventType(e));
  if (unknown !== undefined) {
    throw new AppError('invalid_field', `events: "${unknown.slice(0, 40)}" is not an event type; use ${EVENT_TYPES.join(', ')}.`);
  }
  if (events.length === 0) throw new AppError('invalid_field', 'events: name at least one event type, or leave events out for all.');
  return [...new Set(events as EventType[])];
}

/** An absolute http(s) URL without credentials; in live mode its host must resolve to public addresses only. */
async function checkUrl(deps: { config: Config; webhookDestinations: DestinationGuard }, raw: string): Promise<string> {
  const invalid = (why: string) => new AppError('invalid_field', `url ${why}.`);
  if (raw.length > MAX_URL_LENGTH) throw invalid(`is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('is not an absolute URL such as https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('must start with https:// (or http://)');
  if (url.username !== '' || url.password !== '') throw invalid('must not carry a user name or password');
  if (url.hash !== '') throw invalid('must not have a #fragment');
  if (deps.config.mode === 'live') {
    try {
      await deps.webhookDestinations.checkHost(url.hostname);
    } catch (error) {
      if (error instanceof ForbiddenDestination) throw invalid(`is refused: ${error.message}`);
      throw invalid(`is refused: its host ${url.hostname.slice(0, 100)} does not resolve`);
    }
  }
  return url.href;
}
