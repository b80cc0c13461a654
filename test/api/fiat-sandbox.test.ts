// The sandbox contract's clock helper, its absence in live mode, the sandbox bank's business days,
// and the fiat rail in the OpenAPI document.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Deps } from '../../src/deps.js';
import { addBusinessDays } from '../../src/adapters/processor/business-days.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { newLink } from '../helpers/fiat.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

describe('POST /test-helpers/clock/advance', () => {
  it('moves the service clock forward by whole days and answers the new time', async () => {
    const before = Date.parse((await server.request('GET', '/health')).body.time);
    const response = await server.request('POST', '/test-helpers/clock/advance', { body: { days: 3 } });
    expect(response.status).toBe(200);
    const now = Date.parse(response.body.now);
    expect(now - before).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(now - before).toBeLessThan(3 * 86_400_000 + 60_000);
    const health = Date.parse((await server.request('GET', '/health')).body.time);
    expect(health).toBeGreaterThanOrEqual(now);
    // The offset is stored, so that every process (and a restart) sees the same sandbox time.
    const stored = await server.deps.db.selectFrom('sandbox_clock').select('offset_ms').executeTakeFirstOrThrow();
    expect(stored.offset_ms).toBeGreaterThanOrEqual(3n * 86_400_000n);
  });

  it.each([
    ['zero days', { days: 0 }],
    ['negative days', { days: -1 }],
    ['more than 3650 days', { days: 3651 }],
    ['a fraction', { days: 1.5 }],
    ['a string', { days: '5' }],
    ['no days', {}],
    ['an unknown field', { days: 1, hours: 2 }],
  ])('refuses %s with 400 and leaves the clock alone', async (_what, body) => {
    const before = await server.deps.db.selectFrom('sandbox_clock').select('offset_ms').executeTakeFirstOrThrow();
    expectProblem(await server.request('POST', '/test-helpers/clock/advance', { body }), 400, 'invalid_request');
    const after = await server.deps.db.selectFrom('sandbox_clock').select('offset_ms').executeTakeFirstOrThrow();
    expect(after.offset_ms).toBe(before.offset_ms);
  });
});

describe('live mode', () => {
  it('has no test helpers and no sandbox pages (404)', async () => {
    const user = await registerUser(server);
    const link = await newLink(server, user, '/agent/setup-link');
    const liveDeps: Deps = { ...server.deps, config: { ...server.deps.config, mode: 'live' }, sandboxClock: null, sandboxProcessor: null };
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    const live = await buildApp(liveDeps, { logStream: quiet });
    try {
      const advance = await live.inject({ method: 'POST', url: '/test-helpers/clock/advance', payload: { days: 1 } });
      expect(advance.statusCode).toBe(404);
      expect(advance.json().code).toBe('not_found');
      const page = await live.inject({ method: 'GET', url: new URL(link.url).pathname });
      expect(page.statusCode).toBe(404);
      const spec = (await live.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(spec.paths).filter((p) => p.startsWith('/test-helpers'))).toEqual([]);
      expect(spec.paths['/transfers']).toBeDefined();
    } finally {
      await live.close();
    }
  });
});

describe('sandbox bank business days', () => {
  // 2026-01-02 is a Friday.
  it.each([
    ['Friday', '2026-01-02T10:00:00.000Z', '2026-01-07T10:00:00.000Z'],
    ['Saturday', '2026-01-03T10:00:00.000Z', '2026-01-07T10:00:00.000Z'],
    ['Sunday', '2026-01-04T23:59:00.000Z', '2026-01-07T23:59:00.000Z'],
    ['Monday', '2026-01-05T00:00:00.000Z', '2026-01-08T00:00:00.000Z'],
    ['Wednesday', '2026-01-07T12:00:00.000Z', '2026-01-12T12:00:00.000Z'],
    ['Thursday', '2026-01-08T12:00:00.000Z', '2026-01-13T12:00:00.000Z'],
  ])('3 business days after a %s', (_day, from, expected) => {
    expect(addBusinessDays(new Date(from), 3).toISOString()).toBe(expected);
  });

  it('never needs more than 5 calendar days for 3 business days', () => {
    for (let day = 0; day < 14; day++) {
      const from = new Date(Date.UTC(2026, 0, 1 + day, 9));
      const span = addBusinessDays(from, 3).getTime() - from.getTime();
      expect(span).toBeGreaterThanOrEqual(3 * 86_400_000);
      expect(span).toBeLessThanOrEqual(5 * 86_400_000);
    }
  });
});

describe('the OpenAPI document', () => {
  it('documents every fiat route with its errors', async () => {
    const spec = (await server.request('GET', '/openapi.json')).body;
    const expected: Record<string, Record<string, string[]>> = {
      '/agent/setup-link': { post: ['200', '400', '401'] },
      '/agent/connect-link': { post: ['200', '400', '401'] },
      '/agent/bank-debit-link': { post: ['200', '400', '401'] },
      '/transfers': { post: ['200', '400', '401', '402', '404', '409', '422', '503'], get: ['200', '400', '401'] },
      '/balance': { get: ['200', '401'] },
      '/transactions': { get: ['200', '400', '401'] },
      '/test-helpers/clock/advance': { post: ['200', '400'] },
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const [method, statuses] of Object.entries(methods)) {
        const operation = spec.paths[path]?.[method];
        expect(operation, `${method} ${path}`).toBeDefined();
        expect(operation.summary).toBeTruthy();
        expect(operation.tags?.length).toBeGreaterThan(0);
        for (const status of statuses) expect(operation.responses[status], `${method} ${path} ${status}`).toBeDefined();
      }
    }
    const body = spec.paths['/transfers'].post.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).toBe(false);
    expect(body.required.sort()).toEqual(['amount', 'currency', 'recipientHandle']);
    // The link endpoints take no body.
    expect(spec.paths['/agent/setup-link'].post.requestBody).toBeUndefined();
    // The sandbox pages carry a token in their path and are not part of the API document.
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/links'))).toEqual([]);
  });
});
