// A webhook receiver cannot hold peerpay's sockets: the whole exchange (status and the answer's
// end) is bounded by WEBHOOK_TIMEOUT_MS, the answer is read only up to a small cap, and the
// sockets one process holds open are bounded in all (WEBHOOK_MAX_SOCKETS) and per endpoint
// (WEBHOOK_MAX_SOCKETS_PER_ENDPOINT), even when delivery rounds overlap. Each receiver watches
// from its own side when peerpay's connection goes.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/events/webhook-delivery.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';
import { startSlowReceiver, type OpenCount, type SlowReceiver } from '../helpers/slow-receiver.js';

const TIMEOUT_MS = 800;
const MAX_SOCKETS = 3;
const MAX_SOCKETS_PER_ENDPOINT = 1;

let server: TestServer;
const receivers: SlowReceiver[] = [];

beforeAll(async () => {
  server = await startTestServer({
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    WEBHOOK_MAX_SOCKETS: String(MAX_SOCKETS),
    WEBHOOK_MAX_SOCKETS_PER_ENDPOINT: String(MAX_SOCKETS_PER_ENDPOINT),
    WEBHOOK_MAX_ENDPOINTS: '4',
    // One retry, at once: each delivery is attempted twice, then given up.
    WEBHOOK_RETRY_SCHEDULE_MS: '0',
  });
});

afterAll(async () => {
  for (const r of receivers) await r.close();
  await server.close();
});

// The queue is the server's: what an earlier test left due is sent first.
beforeEach(async () => {
  while ((await deliverDueWebhooks(server.deps)) > 0);
});

async function slowReceiver(options: Parameters<typeof startSlowReceiver>[0]): Promise<SlowReceiver> {
  const r = await startSlowReceiver(options);
  receivers.push(r);
  return r;
}

async function subscribe(user: TestUser, url: string): Promise<string> {
  const response = await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url } });
  expect(response.status).toBe(201);
  return response.body.id;
}

async function transfers(sender: TestUser, recipient: TestUser, count: number): Promise<void> {
  await fund(server, sender, 10_000_000n);
  for (let i = 0; i < count; i++) {
    expect((await agentTransfer(server, sender, { to: recipient.handle, amount: 1, currency: 'USDC' })).status).toBe(200);
  }
}

async function attemptsOf(user: TestUser, endpointId: string) {
  const response = await server.request('GET', `/webhook-endpoints/${endpointId}/deliveries`, { key: user.key });
  expect(response.status).toBe(200);
  return response.body.deliveries as Array<{ attempt: number; statusCode: number | null; succeeded: boolean; error: string | null }>;
}

describe('one exchange', () => {
  it('a receiver that answers 200 and trickles its body loses the connection at the timeout; the attempt is a failure, retried', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await slowReceiver({ mode: 'trickle', trickleMs: 100 });
    const endpointId = await subscribe(recipient, r.url);
    await transfers(sender, recipient, 1);

    expect(await deliverDueWebhooks(server.deps)).toBe(1);
    // Seen from the receiver: the connection is gone, and it went within the timeout (and a margin for the close to travel).
    await r.allClosed(TIMEOUT_MS);
    expect(r.connections).toHaveLength(1);
    const [connection] = r.connections;
    expect(connection!.closedAt! - connection!.openedAt).toBeLessThan(TIMEOUT_MS + 500);

    const [attempt] = await attemptsOf(recipient, endpointId);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, succeeded: false });
    expect(attempt!.error).toBe(`answered 200 but did not finish the answer within ${TIMEOUT_MS} ms`);
    const row = await server.deps.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', attempts: 1 });
    expect(server.deps.webhookSockets.inUse()).toBe(0);
  });

  it('an endless answer is read only up to the cap: the 200 counts, and the connection is closed at once', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const r = await slowReceiver({ mode: 'flood' });
    const endpointId = await subscribe(recipient, r.url);
    await transfers(sender, recipient, 1);

    expect(await deliverDueWebhooks(server.deps)).toBe(1);
    await r.allClosed(TIMEOUT_MS);
    const [attempt] = await attemptsOf(recipient, endpointId);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, succeeded: true, error: null });
    expect(server.deps.webhookSockets.inUse()).toBe(0);
  });
});

describe('sockets in flight', () => {
  it('never more than the limits, per endpoint and per process, with rounds overlapping; over a limit waits its turn without spending an attempt', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const all: OpenCount = { open: 0, max: 0 };
    const endpoints: Array<{ id: string; receiver: SlowReceiver }> = [];
    for (let i = 0; i < 4; i++) {
      const receiver = await slowReceiver({ mode: 'trickle', trickleMs: 50, shared: all });
      endpoints.push({ id: await subscribe(recipient, receiver.url), receiver });
    }
    await transfers(sender, recipient, 3);

    // A new round every 100 ms whether the earlier ones have ended or not (the job's own rounds and
    // a clock move's overlap so), until nothing is due: a round claims what earlier rounds' failed
    // attempts made due again while those rounds still have sockets open.
    const rounds: Array<Promise<number>> = [];
    const until = Date.now() + 30_000;
    while ((await pendingFor(endpoints.map((e) => e.id))) > 0 && Date.now() < until) {
      rounds.push(deliverDueWebhooks(server.deps));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all(rounds);

    for (const { receiver } of endpoints) expect(receiver.requests.max).toBeLessThanOrEqual(MAX_SOCKETS_PER_ENDPOINT);
    expect(all.max).toBeLessThanOrEqual(MAX_SOCKETS);
    // The limit was reached, so the bound above was tested, not merely never approached.
    expect(all.max).toBe(MAX_SOCKETS);
    for (const { receiver } of endpoints) await receiver.allClosed(TIMEOUT_MS);
    expect(server.deps.webhookSockets.inUse()).toBe(0);
    // Every delivery had its two attempts (3 events × 4 endpoints), however often it waited for a socket.
    const rows = await server.deps.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where(
        'endpoint_id',
        'in',
        endpoints.map((e) => e.id),
      )
      .execute();
    expect(rows).toHaveLength(12);
    expect(rows.every((row) => row.status === 'failed' && row.attempts === 2)).toBe(true);
    for (const { id } of endpoints) expect(await attemptsOf(recipient, id)).toHaveLength(6);
  });
});

async function pendingFor(endpointIds: string[]): Promise<number> {
  const rows = await sql<{ n: string }>`
    select count(*)::text as n from webhook_deliveries
     where status = 'pending' and endpoint_id in (${sql.join(endpointIds)})`.execute(server.deps.db);
  return Number(rows.rows[0]!.n);
}
