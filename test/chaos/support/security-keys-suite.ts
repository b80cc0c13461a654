// Revoked keys fail at once, everywhere: on the very next request, on every operation that looks
// at a key (the optional-key ones too), on the instance that revoked and on another instance over
// the same database, also with requests in flight and with a kept Idempotency-Key answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secret, world } from './security-world.js';
import { registerUser, expectProblem, type TestResponse, type TestServer } from '../../helpers/test-server.js';
import { freshAddress } from '../../helpers/withdrawals.js';
import { recordChaos } from './report.js';
import { chaosTally, seededHex } from './tally.js';
import { byProfile, chaosSettings, randomFor } from './settings.js';
import { publishedOperations, routeKey, routerRoutes, securityOf } from './security-routes.js';

const settings = chaosSettings();
const seedNote = `(CHAOS_SEED=${settings.seed})`;
const random = randomFor('security-keys');
const tally = chaosTally();
const randomHex = seededHex(random);

/** A body good enough to get past any operation's validation, so that only the key decides the answer. */
const anyBody = (handle: string) =>
  JSON.stringify({
    to: handle,
    recipientHandle: handle,
    amount: 1,
    currency: 'USDC',
    paymentMethod: 'instant',
    address: freshAddress(),
    name: 'X',
  });

function callWithKey(
  server: TestServer,
  method: string,
  path: string,
  key: string,
  handle: string,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(method);
  return server.request(method, path, {
    key,
    ...(hasBody ? { rawBody: anyBody(handle) } : {}),
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
  });
}

/** Revoked keys, on the shared instances A and B of the including file. */
export function revokedKeysSuite(): void {
  afterAll(() => recordChaos('security-revoked-keys', { operations: tally.operations, violations: tally.violations }));
  describe('revoked keys', () => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(() => {
      [a, b] = [world.a, world.b];
    });
    it(
      'fail with 401 on the very next request, on every operation that looks at a key, on this and on another instance over the same database',
      tally.counted(async () => {
        const { operations: published } = await publishedOperations(a);
        const keyed = published.filter((op) => securityOf(op.operation) !== 'public');
        const hidden = routerRoutes(a).filter(
          (key) => !published.some((op) => routeKey(op.method, op.path) === key) && !key.includes(':') && !key.includes('*'),
        );
        expect(keyed.length, seedNote).toBeGreaterThan(20);
        const user = await registerUser(a, { password: secret('revoked user password', `Pw-${randomHex(8)}-revoke`) });
        const other = await registerUser(a);
        const signIn = async (server: TestServer) =>
          secret(
            'signed-in key',
            (await server.request('POST', '/agent/register', { body: { email: user.email, password: user.password } })).body
              .apiKey as string,
          );
        const [onA, onB] = [secret('first key', user.key), await signIn(b)];
        const idem = `revoke-${settings.seed}`;
        // A kept answer under this Idempotency-Key: a revoked key must get 401, never this replay.
        const kept_ = await a.request('POST', '/stablecoin/buy-session', {
          key: onA,
          body: { amount: 1, currency: 'USDC' },
          headers: { 'idempotency-key': idem },
        });
        expect(kept_.status, seedNote).toBe(200);

        const refusedEverywhere = async (key: string, label: string) => {
          const failures: string[] = [];
          for (const server of [a, b]) {
            const name = server === a ? 'A' : 'B';
            for (const op of keyed) {
              const path = op.path.replace(/:[^/]+/g, 'x');
              // Optional-key operations take the key when one is sent: a revoked one is refused, never ignored.
              const headers: Record<string, string> = op.path.startsWith('/nano/')
                ? { 'x-payment-source': 'balance' }
                : op.method === 'POST'
                  ? { 'idempotency-key': idem }
                  : {};
              const answer = await callWithKey(server, op.method, path, key, other.handle, headers);
              tally.operations++;
              if (answer.status !== 401 || answer.body?.code !== 'unauthorized' || !answer.headers.get('www-authenticate'))
                failures.push(`${label} on ${name}: ${op.method} ${op.path} answered ${answer.status} ${answer.text.slice(0, 120)}`);
            }
            // Routes outside the document are public: a revoked key changes nothing there, so it gains nothing.
            for (const key_ of hidden) {
              const [method, path] = key_.split(' ') as [string, string];
              if (method === 'HEAD' || path.startsWith('/test-helpers')) continue;
              const [withKey, without] = [await server.request(method, path, { key }), await server.request(method, path)];
              tally.operations++;
              if (withKey.status !== without.status)
                failures.push(`${label} on ${name}: hidden ${key_} answered ${withKey.status} with the key, ${without.status} without`);
            }
          }
          tally.violations += failures.length;
          expect(failures, `requests with a revoked key that were not refused ${seedNote}`).toEqual([]);
        };

        // Warm both instances with both keys (anything cached would be cached now), then revoke on A.
        for (const key of [onA, onB])
          for (const server of [a, b]) expect((await server.request('GET', '/account', { key })).status, seedNote).toBe(200);
        const revoked = await a.request('POST', '/account/revoke-key', { key: onA });
        expect(revoked.status, seedNote).toBe(200);
        const next = await b.request('GET', '/stablecoin/balance', { key: onA });
        expectProblem(next, 401, 'unauthorized');
        await refusedEverywhere(onA, 'key revoked on A');
        // Revocation is per key: the same account's other key works on both instances.
        for (const server of [a, b])
          expect((await server.request('GET', '/account', { key: onB })).status, `the account's other key ${seedNote}`).toBe(200);

        // Revoke on B while requests with that key are in flight on A: those sent after the answer are all refused.
        const inFlight = Array.from({ length: 10 }, () => a.request('GET', '/balance', { key: onB }));
        expect((await b.request('POST', '/account/revoke-key', { key: onB })).status, seedNote).toBe(200);
        await Promise.all(inFlight);
        const after = await Promise.all(
          Array.from({ length: byProfile({ short: 10, full: 40 }) }, (_, i) => (i % 2 ? a : b).request('GET', '/balance', { key: onB })),
        );
        tally.operations += after.length;
        expect(
          after.map((r) => r.status).filter((s) => s !== 401),
          `requests after revocation on B ${seedNote}`,
        ).toEqual([]);
        await refusedEverywhere(onB, 'key revoked on B');

        // Revoking a revoked key is a 401 too; signing in again gives a fresh key that works, the old ones do not.
        expectProblem(await a.request('POST', '/account/revoke-key', { key: onA }), 401, 'unauthorized');
        const fresh = await signIn(b);
        for (const server of [a, b]) {
          expect((await server.request('GET', '/account', { key: fresh })).status, seedNote).toBe(200);
          for (const old of [onA, onB]) expectProblem(await server.request('GET', '/account', { key: old }), 401, 'unauthorized');
        }
      }),
      120_000,
    );
  });
}
