// GET /events and the webhook endpoint routes (DESIGN §13).
import type { Events } from '../../events/events.js';
import type { EndpointRow } from '../../events/webhook-endpoints-repository.js';
import type { EventType } from '../../events/event-types.js';
import { callerOf } from '../plugins/auth.js';
import {
  CreateWebhookEndpointBody,
  CreatedWebhookEndpointResponse,
  DeletedResponse,
  DeliveriesQuery,
  DeliveriesResponse,
  EventsQuery,
  EventsResponse,
  WebhookEndpointParams,
  WebhookEndpointsResponse,
} from '../schemas/events-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

const DEFAULT_PAGE_SIZE = 20;

export async function eventsRoutes(app: App, events: Events): Promise<void> {
  listEventsRoute(app, events);
  webhookEndpointRoutes(app, events);
  deliveriesRoute(app, events);
}

/** GET /events: the caller's events from a cursor. */
function listEventsRoute(app: App, events: Events): void {
  app.get(
    '/events',
    operation({
      operationId: 'listEvents',
      tag: 'events',
      summary: 'Your events, oldest first, from a cursor',
      description:
        'Everything that happened to your account that you would otherwise poll for: transfers sent, received, completed and failed, deposits credited, withdrawals and payouts ended, links completed, x402 payments from your balance. Each event is written with the change it describes. Pass `nextCursor` as `after` to get what came since (an empty page keeps the same cursor). Kept 30 days.',
      auth: 'required',
      querystring: EventsQuery,
      responses: { 200: EventsResponse },
      errors: [],
    }),
    async (request) => {
      const limit = request.query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(request.query.limit);
      return events.list({ accountId: callerOf(request).accountId, after: request.query.after, limit });
    },
  );
}

/** Create, list and delete the caller's webhook endpoints. */
function webhookEndpointRoutes(app: App, events: Events): void {
  app.post(
    '/webhook-endpoints',
    operation({
      operationId: 'createWebhookEndpoint',
      tag: 'events',
      summary: 'Receive events by webhook, signed per Standard Webhooks',
      description:
        'Answers 201 with the endpoint and its signing `secret` (shown once). Each event is POSTed as `{type, timestamp, data}` (data: the event, its id included) with the headers webhook-id, webhook-timestamp and webhook-signature (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`); any 2xx within 10 s is success, otherwise it is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; delivery is at least once, in no promised order. An endpoint failing for 5 days is disabled. Errors: 400 `invalid_field` (url or events), 409 `limit_reached` (10 endpoints per account).',
      auth: 'required',
      readsBody: true,
      body: CreateWebhookEndpointBody,
      responses: { 201: CreatedWebhookEndpointResponse },
      errors: ['invalid_field', 'limit_reached'],
    }),
    async (request, reply) => {
      const { endpoint, secret } = await events.createEndpoint({ accountId: callerOf(request).accountId, ...request.body });
      reply.code(201);
      return { ...presentEndpoint(endpoint), secret };
    },
  );

  app.get(
    '/webhook-endpoints',
    operation({
      operationId: 'listWebhookEndpoints',
      tag: 'events',
      summary: 'Your webhook endpoints (their secrets are never shown again)',
      auth: 'required',
      responses: { 200: WebhookEndpointsResponse },
      errors: [],
    }),
    async (request) => ({ endpoints: (await events.endpointsOf(callerOf(request).accountId)).map(presentEndpoint) }),
  );

  app.delete(
    '/webhook-endpoints/:id',
    operation({
      operationId: 'deleteWebhookEndpoint',
      tag: 'events',
      summary: 'Delete a webhook endpoint; deliveries still due to it are cancelled',
      auth: 'required',
      // No body is needed, but one sent is parsed like any other (a non-JSON one is 415).
      readsBody: true,
      params: WebhookEndpointParams,
      responses: { 200: DeletedResponse },
      errors: ['not_found'],
    }),
    async (request) => {
      await events.removeEndpoint({ accountId: callerOf(request).accountId, id: request.params.id });
      return { id: request.params.id, deleted: true };
    },
  );
}

/** GET /webhook-endpoints/:id/deliveries: the delivery attempts to one endpoint. */
function deliveriesRoute(app: App, events: Events): void {
  app.get(
    '/webhook-endpoints/:id/deliveries',
    operation({
      operationId: 'listWebhookDeliveries',
      tag: 'events',
      summary: 'Every delivery attempt to one of your endpoints, newest first',
      auth: 'required',
      params: WebhookEndpointParams,
      querystring: DeliveriesQuery,
      responses: { 200: DeliveriesResponse },
      errors: ['not_found'],
    }),
    async (request) => {
      const limit = request.query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(request.query.limit);
      const page = await events.deliveriesOf({
        accountId: callerOf(request).accountId,
        id: request.params.id,
        limit,
        before: request.query.cursor,
      });
      return {
        deliveries: page.attempts.map((a) => ({
          eventId: a.eventId,
          eventType: a.eventType as EventType,
          attempt: a.attempt,
          attemptedAt: a.attemptedAt.toISOString(),
          statusCode: a.statusCode,
          error: a.error,
          durationMs: a.durationMs,
          succeeded: a.succeeded,
        })),
        nextCursor: page.nextCursor,
      };
    },
  );
}

function presentEndpoint(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    events: e.events as EventType[] | null,
    status: e.status === 'enabled' ? ('enabled' as const) : ('disabled' as const),
    createdAt: e.createdAt.toISOString(),
  };
}
