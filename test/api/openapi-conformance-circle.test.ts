// The OpenAPI document with WALLET_PROVIDER=circle (against the Circle stand-in of test/fakes/circle):
// the one operation only circle mode serves, POST /webhooks/circle, is documented and answers what
// the document says, on success and on each refusal. The sandbox and live conformance tests run in
// self mode, where the route is not registered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startCircleServer, type CircleServer } from '../helpers/circle-custody.js';
import { operationsOf, runCase, targetOf, type Target } from './openapi-support.js';
import type { Call } from './openapi-conformance-cases.js';

let cs: CircleServer;
let target: Target;

beforeAll(async () => {
  cs = await startCircleServer();
  target = await targetOf(cs.server);
});

afterAll(async () => {
  await cs?.close();
});

/** A notification Circle would send, of a type peerpay acknowledges and ignores. */
function testNotification(): string {
  return JSON.stringify({
    subscriptionId: randomUUID(),
    notificationId: randomUUID(),
    notificationType: 'webhooks.test',
    notification: { hello: 'world' },
    timestamp: new Date().toISOString(),
    version: 2,
  });
}

function webhook(body: string, headers: Record<string, string>, status: number, code?: string): Call {
  return {
    method: 'POST',
    path: '/webhooks/circle',
    as: 'none',
    raw: { text: body, type: 'application/json' },
    headers,
    status,
    ...(code ? { code } : {}),
  };
}

describe('POST /webhooks/circle in circle mode', () => {
  it('is in the document, once', async () => {
    const doc = (await cs.server.request('GET', '/openapi.json')).body;
    const circleOps = operationsOf(doc).filter((o) => o.path === '/webhooks/circle');
    expect(circleOps.map((o) => `${o.method} ${o.operationId}`)).toEqual(['POST receiveCircleNotification']);
  });

  it('answers what the document says, on success and on refusal', async () => {
    const op = target.operations.find((o) => o.operationId === 'receiveCircleNotification');
    const body = testNotification();
    const signed = { 'X-Circle-Key-Id': cs.circle.notificationKeyId, 'X-Circle-Signature': cs.circle.signNotification(body) };
    const other = testNotification();
    await runCase(target, op, {
      success: [webhook(body, signed, 200), webhook(body, signed, 200)],
      errors: [
        // Signed over another body, unsigned, under a key Circle does not have, and too large.
        webhook(other, signed, 400, 'invalid_signature'),
        webhook(body, {}, 400, 'invalid_signature'),
        webhook(body, { ...signed, 'X-Circle-Key-Id': randomUUID() }, 400, 'invalid_signature'),
        webhook(JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), signed, 413, 'body_too_large'),
      ],
    });
  });

  it('answers 503 service_unavailable, documented, while Circle cannot give its signing key', async () => {
    const op = target.operations.find((o) => o.operationId === 'receiveCircleNotification');
    const body = testNotification();
    // A key id peerpay has not fetched yet, so it must ask Circle, which keeps failing.
    const keyId = randomUUID();
    cs.circle.faults.failNext({ method: 'GET', path: `/v2/notifications/publicKey/${keyId}`, fault: 503, count: 20 });
    try {
      await runCase(target, op, {
        success: [
          webhook(body, { 'X-Circle-Key-Id': cs.circle.notificationKeyId, 'X-Circle-Signature': cs.circle.signNotification(body) }, 200),
        ],
        errors: [
          webhook(body, { 'X-Circle-Key-Id': keyId, 'X-Circle-Signature': cs.circle.signNotification(body) }, 503, 'service_unavailable'),
        ],
      });
    } finally {
      cs.circle.faults.clear();
    }
  });
});
