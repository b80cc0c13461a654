// Schemas of GET /events and the webhook endpoint routes (DESIGN §13).
import { Type } from 'typebox';
import { EVENT_TYPES } from '../../events/event-types.js';
import { StringEnum } from './common.js';

const EventType = StringEnum(EVENT_TYPES, { description: 'The event type', examples: ['transfer.received'] });

const EXAMPLE_EVENT = {
  id: 'evt_4fZk8Q2WnYb7cT1R9xLmP3',
  type: 'transfer.received',
  createdAt: '2026-01-05T10:00:00.000Z',
  data: {
    id: 'tr_4fZk8Q2WnYb7cT1R9xLmP3',
    direction: 'received',
    amount: '10.00',
    currency: 'USD',
    status: 'completed',
    paymentMethod: 'instant',
    counterpartyHandle: 'PA-7KQ2M9XD',
    senderHandle: 'PA-7KQ2M9XD',
    recipientHandle: 'PA-3HT8W2ZP',
    note: 'Lunch',
    createdAt: '2026-01-05T10:00:00.000Z',
    completedAt: '2026-01-05T10:00:00.000Z',
  },
};

export const EventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_ and 22 characters; also the webhook-id header of its webhooks', examples: [EXAMPLE_EVENT.id] }),
    type: EventType,
    createdAt: Type.String({ format: 'date-time', description: 'When the change happened (in the same transaction)' }),
    data: Type.Object({}, { additionalProperties: true, description: 'The resource as the API shows it to this account' }),
  },
  { examples: [EXAMPLE_EVENT] },
);

export const EventsQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'An event id (nextCursor of the previous page): the events after it; omitted, from the oldest kept',
        examples: ['evt_4fZk8Q2WnYb7cT1R9xLmP3'],
      }),
    ),
    limit: Type.Optional(
      Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'page size, a whole number from 1 to 100; default 20', examples: ['20'] }),
    ),
  },
  { additionalProperties: false },
);

export const EventsResponse = Type.Object(
  {
    events: Type.Array(EventSchema, { description: 'Oldest first; kept 30 days' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description:
        'Pass as `after` for the next events (the last event id, or `after` again when there are none yet); null when you have no events',
    }),
  },
  { examples: [{ events: [EXAMPLE_EVENT], nextCursor: EXAMPLE_EVENT.id }] },
);

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'Where to POST events: https:// (or http://). In live mode a host that resolves to a loopback, private, link-local or other internal address is refused.',
      examples: ['https://example.com/peerpay/webhooks'],
    }),
    events: Type.Optional(
      Type.Array(Type.String({ maxLength: 40, examples: ['transfer.received'] }), {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        description: `The event types to send (${EVENT_TYPES.join(', ')}); omitted: all of them`,
        examples: [['transfer.received', 'deposit.credited']],
      }),
    ),
  },
  { additionalProperties: false, examples: [{ url: 'https://example.com/peerpay/webhooks', events: ['transfer.received'] }] },
);

const ENDPOINT_EXAMPLE = {
  id: 'we_4fZk8Q2WnYb7cT1R9xLmP3',
  url: 'https://example.com/peerpay/webhooks',
  events: ['transfer.received'],
  status: 'enabled',
  createdAt: '2026-01-05T10:00:00.000Z',
};

const endpointProperties = {
  id: Type.String({ description: 'we_ and 22 characters', examples: [ENDPOINT_EXAMPLE.id] }),
  url: Type.String({ examples: [ENDPOINT_EXAMPLE.url] }),
  events: Type.Union([Type.Array(EventType), Type.Null()], { description: 'The event types it receives; null: all' }),
  status: StringEnum(['enabled', 'disabled'], { description: '`disabled` after 5 days of failed deliveries; create it again to resume' }),
  createdAt: Type.String({ format: 'date-time' }),
};

export const WebhookEndpointSchema = Type.Object(endpointProperties, { examples: [ENDPOINT_EXAMPLE] });

export const CreatedWebhookEndpointResponse = Type.Object(
  {
    ...endpointProperties,
    secret: Type.String({
      description: 'The signing secret, `whsec_` + base64: shown this once; verify webhooks with it (Standard Webhooks)',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  },
  { examples: [{ ...ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }] },
);

export const WebhookEndpointsResponse = Type.Object(
  { endpoints: Type.Array(WebhookEndpointSchema) },
  { examples: [{ endpoints: [ENDPOINT_EXAMPLE] }] },
);

export const WebhookEndpointParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100, description: 'The endpoint id', examples: [ENDPOINT_EXAMPLE.id] }) },
  { additionalProperties: false },
);

export const DeletedResponse = Type.Object(
  { id: Type.String({ examples: [ENDPOINT_EXAMPLE.id] }), deleted: Type.Boolean({ examples: [true] }) },
  { examples: [{ id: ENDPOINT_EXAMPLE.id, deleted: true }] },
);

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: 'page size, a whole number from 1 to 100; default 20', examples: ['20'] }),
    ),
    cursor: Type.Optional(
      Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: '`nextCursor` of the previous page', examples: ['1234'] }),
    ),
  },
  { additionalProperties: false },
);

const ATTEMPT_EXAMPLE = {
  eventId: 'evt_4fZk8Q2WnYb7cT1R9xLmP3',
  eventType: 'transfer.received',
  attempt: 1,
  attemptedAt: '2026-01-05T10:00:01.000Z',
  statusCode: 200,
  error: null,
  durationMs: 84,
  succeeded: true,
};

export const DeliveriesResponse = Type.Object(
  {
    deliveries: Type.Array(
      Type.Object({
        eventId: Type.String(),
        eventType: EventType,
        attempt: Type.Integer({ minimum: 1, description: '1 for the first try of this event at this endpoint' }),
        attemptedAt: Type.String({ format: 'date-time' }),
        statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'What the endpoint answered; null when it did not' }),
        error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed (a status, a timeout, a refused address)' }),
        durationMs: Type.Integer({ minimum: 0 }),
        succeeded: Type.Boolean({ description: 'Any 2xx within 10 s' }),
      }),
      { description: 'Every attempt, newest first' },
    ),
    nextCursor: Type.Union([Type.String(), Type.Null()]),
  },
  { examples: [{ deliveries: [ATTEMPT_EXAMPLE], nextCursor: null }] },
);
