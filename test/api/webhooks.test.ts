// Webhook endpoints and delivery (DESIGN §13): validation, ownership, retries with a shortened
// schedule (an endpoint answering 500 three times gets the event on the fourth attempt), giving up,
// disabling after 5 days of failures, deletion, and live mode's refusal of internal addresses (at
// creation and again in the delivery's own connection).
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEndpoint } from '../../src/events/webhook-endpoints-service.js';
import { createDestinationGuard, isForbiddenAddress } from '../../src/events/destination-guard.js';
import { sendWebhook } from '../../src/events/webhook-sender.js';
import { deliverDueWebhooks } from '../../src/events/webhook-delivery.js';
import type { Deps } from '../../src/deps.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays } from '../helpers/fiat.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let server: TestServer;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  // Retries at once (the schedule is configuration), three of them; at most 3 endpoints per account.
  server = await startTestServer({ WEBHOOK_RETRY_SCHEDULE_MS: '0,0,0', WEBHOOK_MAX_ENDPOINTS: '3', WEBHOOK_TIMEOUT_MS: '2000' });
});

afterAll(async () => {
  await server.close();
  for (const r of receivers) await r.close();
});

async function receiver(answers: number[] = []): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver({ answers });
  receivers.push(r);
  return r;
}

async function subscribe(user: TestUser, r: WebhookReceiver, events?: string[]): Promise<string> {
  const response = await server.request('POST', '/webhook-endpoints', {
    key: user.key,
    body: { url: r.url, ...(events ? { events } : {}) },
  });
  expect(response.status).toBe(201);
  r.setSecret(response.body.secret);
  return response.body.id;
}

/** A stablecoin transfer from a funded sender: transfer.sent to it, transfer.received to the recipient. */
async function transfer(sender: TestUser, recipient: TestUser): Promise<string> {
  await fund(server, sender, 10_000_000n);
  const sent = await agentTransfer(server, sender, { to: recipient.handle, amount: 1, currency: 'USDC' });
  expect(sent.status).toBe(200);
  return sent.body.transferId;
}

async function deliveries(user: TestUser, endpointId: string) {
  const response = await server.request('GET', `/webhook-endpoints/${endpointId}/deliveries`, { key: user.key });
  expect(response.status).toBe(200);
  return response.body.deliveries as Array<{
    attempt: number;
    statusCode: number | null;
    succeeded: boolean;
    eventType: string;
    error: string | null;
  }>;
}

async function endpointCount(): Promise<number> {
  const rows = await sql<{ n: string }>`select count(*)::text as n from webhook_endpoints`.execute(server.deps.db);
  return Number(rows.rows[0]!.n);
}

describe('creating webhook endpoints', () => {
  it('refuses what is not an http(s) URL, unknown event types and unknown fields with a 400, creating nothing', async () => {
    const user = await registerUser(server);
    const before = await endpointCount();
    for (const url of [
      'ftp://example.com/hooks',
      'javascript:alert(1)',
      'not a url',
      '/relative',
      'https://user:pw@example.com/hooks',
      `https://example.com/${'a'.repeat(2100)}`,
    ]) {
      const problem = await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url } });
      expect(problem.status, url.slice(0, 40)).toBe(400);
      expect(['invalid_field', 'invalid_request']).toContain(problem.body.code);
    }
    expectProblem(
      await server.request('POST', '/webhook-endpoints', {
        key: user.key,
        body: { url: 'https://example.com', events: ['transfer.teleported'] },
      }),
      400,
      'invalid_field',
    );
    expectProblem(
      await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: 'https://example.com', events: [] } }),
      400,
      'invalid_request',
    );
    expectProblem(
      await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: 'https://example.com', secret: 'mine' } }),
      400,
      'invalid_request',
    );
    expectProblem(await server.request('POST', '/webhook-endpoints', { key: user.key, body: {} }), 400, 'invalid_request');
    expect(await endpointCount()).toBe(before);
  });

  it('shows the secret once, bounds the endpoints per account (409 limit_reached) and frees a place on DELETE', async () => {
    const user = await registerUser(server);
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const created = await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: `https://example.com/${i}` } });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    expectProblem(
      await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: 'https://example.com/4' } }),
      409,
      'limit_reached',
    );
    const listed = await server.request('GET', '/webhook-endpoints', { key: user.key });
    expect(listed.body.endpoints.map((e: { id: string }) => e.id)).toEqual(ids);
    expect(listed.text).not.toContain('whsec_');
    expect((await server.request('DELETE', `/webhook-endpoints/${ids[0]}`, { key: user.key })).status).toBe(200);
    expectProblem(await server.request('DELETE', `/webhook-endpoints/${ids[0]}`, { key: user.key }), 404, 'not_found');
    expect((await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: 'https://example.com/4' } })).status).toBe(
      201,
    );
  });

  it('never stores the secret: it is derived from the master seed and a salt', async () => {
    const user = await registerUser(server);
    const created = await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: 'https://example.com/x' } });
    const secret: string = created.body.secret;
    const dump = await sql<{ row: string }>`select row_to_json(w)::text as row from webhook_endpoints w`.execute(server.deps.db);
    expect(dump.rows.map((r) => r.row).join('\n')).not.toContain(secret.slice('whsec_'.length, 20));
    const salt = await server.deps.db
      .selectFrom('webhook_endpoints')
      .select('secret_salt')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(server.deps.webhookSecrets.secretFor(salt.secret_salt)).toBe(secret);
  });
});

describe('ownership', () => {
  it("another account's endpoint is 404 for its deliveries and DELETE, and is not listed; events are the caller's own", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const r = await receiver();
    const aliceEndpoint = await subscribe(alice, r);
    await transfer(alice, bob);
    expectProblem(await server.request('GET', `/webhook-endpoints/${aliceEndpoint}/deliveries`, { key: bob.key }), 404, 'not_found');
    expectProblem(await server.request('DELETE', `/webhook-endpoints/${aliceEndpoint}`, { key: bob.key }), 404, 'not_found');
    expect((await server.request('GET', '/webhook-endpoints', { key: bob.key })).body.endpoints).toEqual([]);
    const aliceEvents = (await server.request('GET', '/events', { key: alice.key })).body.events;
    const bobEvents = (await server.request('GET', '/events', { key: bob.key })).body.events;
    expect(aliceEvents.map((e: { type: string }) => e.type)).toEqual(['transfer.sent']);
    expect(bobEvents.map((e: { type: string }) => e.type)).toEqual(['transfer.received']);
    // Alice's event id is no position in Bob's events: refused as an unknown one.
    expectProblem(await server.request('GET', `/events?after=${aliceEvents[0].id}`, { key: bob.key }), 400, 'invalid_request');
    const page = await server.request('GET', `/events?after=${bobEvents[0].id}`, { key: bob.key });
    expect(page.body).toEqual({ events: [], nextCursor: bobEvents[0].id });
    // Still there for Alice.
    expect((await server.request('GET', '/webhook-endpoints', { key: alice.key })).body.endpoints).toHaveLength(1);
  });
});

describe('delivery', () => {
  // The queue is the server's: what earlier tests left due is sent first, so that each test counts its own.
  beforeEach(async () => {
    while ((await deliverDueWebhooks(server.deps)) > 0);
  });

  it('an endpoint answering 500 three times gets the event on the fourth attempt; every attempt is recorded', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver([500, 500, 500]);
    const endpointId = await subscribe(recipient, r, ['transfer.received']);
    const transferId = await transfer(sender, recipient);
    for (let round = 1; round <= 3; round++) {
      expect(await deliverDueWebhooks(server.deps)).toBe(1);
      expect(r.received).toEqual([]);
    }
    expect(await deliverDueWebhooks(server.deps)).toBe(1);
    expect(r.requests).toBe(4);
    expect(r.refused).toEqual([]);
    expect(r.received).toHaveLength(1);
    expect(r.received[0]!.payload.type).toBe('transfer.received');
    expect(r.received[0]!.payload.data.data).toMatchObject({ id: transferId, direction: 'received', amount: expect.any(Number) });
    expect(await deliverDueWebhooks(server.deps)).toBe(0);
    const attempts = await deliveries(recipient, endpointId);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
      [4, 204, true],
      [3, 500, false],
      [2, 500, false],
      [1, 500, false],
    ]);
  });

  it('gives a delivery up after the last retry of the schedule', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver([500, 500, 500, 500, 500]);
    const endpointId = await subscribe(recipient, r);
    await transfer(sender, recipient);
    for (let round = 0; round < 4; round++) expect(await deliverDueWebhooks(server.deps)).toBe(1);
    expect(await deliverDueWebhooks(server.deps)).toBe(0);
    expect(r.requests).toBe(4);
    expect((await deliveries(recipient, endpointId)).every((a) => !a.succeeded)).toBe(true);
    const row = await server.deps.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
  });

  it('disables an endpoint that has failed for 5 days, and records no event for it any more', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver(Array.from({ length: 20 }, () => 503));
    const endpointId = await subscribe(recipient, r);
    await transfer(sender, recipient);
    expect(await deliverDueWebhooks(server.deps)).toBe(1);
    await advanceDays(server, 6);
    await transfer(sender, recipient);
    // The clock helper runs the jobs; run the deliveries until nothing is due.
    while ((await deliverDueWebhooks(server.deps)) > 0);
    const listed = await server.request('GET', '/webhook-endpoints', { key: recipient.key });
    expect(listed.body.endpoints).toEqual([expect.objectContaining({ id: endpointId, status: 'disabled' })]);
    await transfer(sender, recipient);
    const queued = await sql<{
      n: string;
    }>`select count(*)::text as n from webhook_deliveries where endpoint_id = ${endpointId} and status = 'pending'`.execute(server.deps.db);
    expect(queued.rows[0]!.n).toBe('0');
  });

  it('DELETE cancels what was still due to the endpoint', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver();
    const endpointId = await subscribe(recipient, r);
    await transfer(sender, recipient);
    expect((await server.request('DELETE', `/webhook-endpoints/${endpointId}`, { key: recipient.key })).status).toBe(200);
    expect(await deliverDueWebhooks(server.deps)).toBe(0);
    expect(r.requests).toBe(0);
  });
});

describe('live mode destinations', () => {
  it('refuses endpoint URLs whose host is or resolves to a loopback, private, link-local or unique-local address', async () => {
    const user = await registerUser(server);
    const accountId = (await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow())
      .id;
    const live: Deps = { ...server.deps, config: { ...server.deps.config, mode: 'live' } };
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'https://localhost/hooks',
      'https://10.1.2.3/hooks',
      'https://172.16.0.1/hooks',
      'https://192.168.1.1/hooks',
      'http://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://0.0.0.0/hooks',
      'https://224.0.0.1/hooks',
    ]) {
      await expect(createEndpoint(live, { accountId, url }), url).rejects.toMatchObject({ code: 'invalid_field' });
    }
    expect(isForbiddenAddress('8.8.8.8')).toBe(false);
    expect(isForbiddenAddress('2606:4700:4700::1111')).toBe(false);
    expect(isForbiddenAddress('::ffff:7f00:1')).toBe(true);
  });

  it('checks the address again in the delivery’s own connection (DNS rebinding): a loopback receiver gets nothing', async () => {
    const r = await receiver();
    const result = await sendWebhook(
      {
        url: r.url.replace('127.0.0.1', 'localhost'),
        secret: 'whsec_' + Buffer.from('k'.repeat(32)).toString('base64'),
        id: 'evt_x',
        body: '{}',
        timestampSeconds: 1,
      },
      { timeoutMs: 2000, guard: createDestinationGuard() },
    );
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/loopback, private or reserved/);
    expect(r.requests).toBe(0);
  });

  it('refuses a name that resolved to a public address at creation and resolves to loopback at delivery (DNS rebinding)', async () => {
    while ((await deliverDueWebhooks(server.deps)) > 0);
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver();
    let answer = '93.184.216.34';
    const rebinding = createDestinationGuard({ resolve: async () => [{ address: answer, family: 4 }] });
    const live: Deps = { ...server.deps, config: { ...server.deps.config, mode: 'live' }, webhookDestinations: rebinding };
    const accountId = (
      await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', recipient.handle).executeTakeFirstOrThrow()
    ).id;
    const url = r.url.replace('127.0.0.1', 'hooks.example.test');
    const { endpoint } = await createEndpoint(live, { accountId, url });
    await transfer(sender, recipient);
    answer = '127.0.0.1';
    expect(await deliverDueWebhooks(live)).toBe(1);
    expect(r.requests).toBe(0);
    const [attempt] = await deliveries(recipient, endpoint.id);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: null, succeeded: false });
    expect(attempt!.error).toMatch(/hooks\.example\.test resolves to 127\.0\.0\.1/);
  });

  it('checks an IP-literal URL again at delivery (it never goes through a lookup): one made in sandbox mode gets nothing in live mode', async () => {
    while ((await deliverDueWebhooks(server.deps)) > 0);
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver();
    const endpointId = await subscribe(recipient, r);
    await transfer(sender, recipient);
    const live: Deps = { ...server.deps, config: { ...server.deps.config, mode: 'live' } };
    expect(await deliverDueWebhooks(live)).toBe(1);
    expect(r.requests).toBe(0);
    const [attempt] = await deliveries(recipient, endpointId);
    expect(attempt!.error).toMatch(/127\.0\.0\.1 is a loopback, private or reserved address/);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const http = await import('node:http');
    const target = await receiver();
    const redirecting = http.createServer((_req, res) => res.writeHead(307, { location: target.url }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const port = (redirecting.address() as { port: number }).port;
    const result = await sendWebhook(
      { url: `http://127.0.0.1:${port}/`, secret: 'whsec_AAAA', id: 'evt_y', body: '{}', timestampSeconds: 1 },
      { timeoutMs: 2000, guard: null },
    );
    await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    expect(result.statusCode).toBe(307);
    expect(target.requests).toBe(0);
  });
});

describe('retention', () => {
  it('keeps events 30 days: the clock job deletes older ones with their deliveries', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await receiver();
    await subscribe(recipient, r);
    await transfer(sender, recipient);
    await advanceDays(server, 29);
    expect((await server.request('GET', '/events', { key: recipient.key })).body.events).toHaveLength(1);
    await advanceDays(server, 2);
    expect((await server.request('GET', '/events', { key: recipient.key })).body.events).toEqual([]);
    expect((await server.request('GET', '/events', { key: sender.key })).body.events).toEqual([]);
    const left = await sql<{
      n: string;
    }>`select count(*)::text as n from events where created_at < ${new Date(server.deps.clock.now().getTime() - 30 * 86_400_000)}`.execute(
      server.deps.db,
    );
    expect(left.rows[0]!.n).toBe('0');
  });
});
