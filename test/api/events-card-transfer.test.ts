// Events and webhooks of a card transfer (DESIGN §13): both sides get their events in GET /events,
// and their webhook endpoints receive them signed, verified by the standardwebhooks package.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/events/webhook-delivery.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { send, setUp } from '../helpers/fiat.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let server: TestServer;
let senderHooks: WebhookReceiver;
let recipientHooks: WebhookReceiver;

beforeAll(async () => {
  server = await startTestServer();
  senderHooks = await startWebhookReceiver();
  recipientHooks = await startWebhookReceiver();
});

afterAll(async () => {
  await server.close();
  await senderHooks.close();
  await recipientHooks.close();
});

async function subscribe(user: TestUser, receiver: WebhookReceiver, events?: string[]): Promise<string> {
  const response = await server.request('POST', '/webhook-endpoints', {
    key: user.key,
    body: { url: receiver.url, ...(events ? { events } : {}) },
  });
  expect(response.status).toBe(201);
  expect(response.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  receiver.setSecret(response.body.secret);
  return response.body.id;
}

async function eventsOf(user: TestUser): Promise<Array<{ id: string; type: string; data: any }>> {
  const response = await server.request('GET', '/events', { key: user.key });
  expect(response.status).toBe(200);
  return response.body.events;
}

describe('a card transfer', () => {
  it('tells the sender transfer.sent and transfer.completed, the recipient transfer.received and transfer.completed, by GET /events and signed webhooks', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await subscribe(sender, senderHooks);
    await subscribe(recipient, recipientHooks);
    await setUp(server, sender, '/agent/setup-link');
    const sent = await send(
      server,
      sender,
      { recipientHandle: recipient.handle, amount: 10, currency: 'USD', note: 'lunch' },
      { 'Idempotency-Key': 'card-1' },
    );
    expect(sent.status).toBe(200);
    const transferId = sent.body.transfer.id;

    const senderEvents = await eventsOf(sender);
    expect(senderEvents.map((e) => e.type)).toEqual(['link.completed', 'transfer.sent', 'transfer.completed']);
    expect(senderEvents[1]!.data).toMatchObject({
      id: transferId,
      direction: 'sent',
      amount: '10.00',
      fee: '0.25',
      totalDeducted: '10.25',
      status: 'completed',
    });
    const recipientEvents = await eventsOf(recipient);
    expect(recipientEvents.map((e) => e.type)).toEqual(['transfer.received', 'transfer.completed']);
    expect(recipientEvents[0]!.data).toMatchObject({
      id: transferId,
      direction: 'received',
      amount: '10.00',
      counterpartyHandle: sender.handle,
    });
    expect(recipientEvents[0]!.data).not.toHaveProperty('fee');

    // A replay with the same Idempotency-Key answers the same transfer and creates no event.
    const replay = await send(
      server,
      sender,
      { recipientHandle: recipient.handle, amount: 10, currency: 'USD', note: 'lunch' },
      { 'Idempotency-Key': 'card-1' },
    );
    expect(replay.body.transfer.id).toBe(transferId);
    expect(await eventsOf(sender)).toHaveLength(3);

    // At most two in flight per endpoint: the sender's third waits for the next round.
    expect(await deliverDueWebhooks(server.deps)).toBe(4);
    expect(await deliverDueWebhooks(server.deps)).toBe(1);
    expect(senderHooks.refused).toEqual([]);
    expect(recipientHooks.refused).toEqual([]);
    expect(senderHooks.received.map((w) => w.payload.type).sort()).toEqual(['link.completed', 'transfer.completed', 'transfer.sent']);
    const received = recipientHooks.received.find((w) => w.payload.type === 'transfer.received')!;
    expect(received.id).toBe(recipientEvents[0]!.id);
    expect(received.payload.data).toEqual({ ...recipientEvents[0], createdAt: expect.any(String) });
    // Delivered once: nothing is due any more.
    expect(await deliverDueWebhooks(server.deps)).toBe(0);
  });
});
