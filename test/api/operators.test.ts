// Operator identities and the audit log (DESIGN §17): OPERATOR_TOKEN (`env`) makes operators, each
// with a role and a `po_` token shown once and kept hashed; roles decide what each may do; a
// disabled operator's token is refused as an unknown one; every write is in the append-only audit
// log, read through GET /admin/audit; /admin/openapi.json describes every /admin/* route.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startTestServer, type TestServer } from '../helpers/test-server.js';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
let server: TestServer;

interface Made {
  id: string;
  name: string;
  token: string;
  enrolmentUrl: string;
  requestId: string;
}
/** Every secret the API handed out in this file: none may show up anywhere else. */
const secrets: string[] = [OPERATOR_TOKEN];

async function makeOperator(name: string, role: string, by = OPERATOR_TOKEN): Promise<Made> {
  const response = await server.request('POST', '/admin/operators', { key: by, body: { name, role, note: `${name} joins` } });
  expect(response.status, response.text).toBe(201);
  const { operator, token, enrolmentUrl } = response.body;
  secrets.push(token, enrolmentUrl.split('/').pop());
  return { id: operator.id, name, token, enrolmentUrl, requestId: response.headers.get('x-request-id')! };
}

let admin: Made;
let support: Made;
let viewer: Made;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  admin = await makeOperator('Alice', 'admin');
  support = await makeOperator('bob.support', 'support');
  viewer = await makeOperator('carol_viewer-1', 'viewer', admin.token);
});
afterAll(async () => {
  await server?.close();
});

describe('making operators', () => {
  it('answers the operator, its po_ token and a one-time enrolment link valid 24 hours; only hashes are stored', async () => {
    const response = await server.request('POST', '/admin/operators', {
      key: OPERATOR_TOKEN,
      body: { name: 'dave', role: 'viewer', note: 'new hire' },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['enrolmentUrl', 'operator', 'token']);
    expect(response.body.operator).toEqual({
      id: expect.stringMatching(/^op_[0-9A-Za-z]+$/),
      name: 'dave',
      role: 'viewer',
      createdAt: expect.any(String),
    });
    const { token, enrolmentUrl } = response.body;
    expect(token).toMatch(/^po_[0-9A-Za-z]{43}$/);
    const prefix = `${server.deps.config.publicUrl}/console/enrol/`;
    expect(enrolmentUrl.startsWith(prefix)).toBe(true);
    const enrolmentToken = enrolmentUrl.slice(prefix.length);
    expect(enrolmentToken).toMatch(/^[0-9A-Za-z]{43}$/);
    secrets.push(token, enrolmentToken);

    const row = await server.deps.db
      .selectFrom('operators')
      .selectAll()
      .where('id', '=', response.body.operator.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(row.enrolment_token_hash).toBe(sha256(enrolmentToken));
    expect(row.enrolment_expires_at!.getTime() - row.created_at.getTime()).toBe(24 * 60 * 60 * 1000);
    expect(row.created_at.toISOString()).toBe(response.body.operator.createdAt);
    expect(row.created_by).toBe('env');
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(enrolmentToken);
    // The token works at once, with its role.
    expect((await server.request('GET', '/admin/operators', { key: token })).status).toBe(200);
  });

  it.each([
    ['a taken name', { name: 'alice', role: 'viewer', note: 'again' }, 409, 'already_exists'],
    ['a taken name in another case', { name: 'ALICE', role: 'admin', note: 'again' }, 409, 'already_exists'],
    ['the reserved name env', { name: 'env', role: 'admin', note: 'x' }, 409, 'already_exists'],
    ['the reserved name System', { name: 'System', role: 'admin', note: 'x' }, 409, 'already_exists'],
    ['an empty note', { name: 'erin', role: 'viewer', note: '' }, 400, 'invalid_request'],
    ['a blank note', { name: 'erin', role: 'viewer', note: ' \t\n ' }, 400, 'invalid_request'],
    ['no note', { name: 'erin', role: 'viewer' }, 400, 'invalid_request'],
    ['an unknown role', { name: 'erin', role: 'root', note: 'x' }, 400, 'invalid_request'],
    ['a name with a space', { name: 'erin smith', role: 'viewer', note: 'x' }, 400, 'invalid_request'],
    ['an empty name', { name: '', role: 'viewer', note: 'x' }, 400, 'invalid_request'],
    ['a name of 65 characters', { name: 'e'.repeat(65), role: 'viewer', note: 'x' }, 400, 'invalid_request'],
    ['an unknown field', { name: 'erin', role: 'viewer', note: 'x', token: 'po_mine' }, 400, 'invalid_request'],
  ])('refuses %s, and makes no one', async (_case, body, status, code) => {
    const before = (await server.request('GET', '/admin/operators', { key: OPERATOR_TOKEN })).body.operators.length;
    expectProblem(await server.request('POST', '/admin/operators', { key: OPERATOR_TOKEN, body }), status, code);
    expect((await server.request('GET', '/admin/operators', { key: OPERATOR_TOKEN })).body.operators).toHaveLength(before);
  });
});

describe('roles', () => {
  it('a viewer reads, and gets 403 operator_forbidden on any write', async () => {
    for (const path of ['/admin/operators', '/admin/audit', '/admin/treasury', '/admin/refunds', '/admin/openapi.json'])
      expect((await server.request('GET', path, { key: viewer.token })).status, path).toBe(200);
    const refund = await server.request('POST', '/admin/transfers/tr_nothing/refund', {
      key: viewer.token,
      body: { reason: 'duplicate', note: 'x' },
    });
    expect(expectProblem(refund, 403, 'operator_forbidden').detail).toContain('admin');
    expectProblem(
      await server.request('POST', '/admin/operators', { key: viewer.token, body: { name: 'v2', role: 'viewer', note: 'x' } }),
      403,
      'operator_forbidden',
    );
  });

  it('support may not manage operators (403), an admin may', async () => {
    expectProblem(
      await server.request('POST', '/admin/operators', { key: support.token, body: { name: 's2', role: 'viewer', note: 'x' } }),
      403,
      'operator_forbidden',
    );
    expectProblem(
      await server.request('POST', `/admin/operators/${viewer.id}/disable`, { key: support.token, body: { note: 'x' } }),
      403,
      'operator_forbidden',
    );
    expectProblem(
      await server.request('POST', '/admin/transfers/tr_nothing/refund', { key: support.token, body: { reason: 'duplicate', note: 'x' } }),
      403,
      'operator_forbidden',
    );
    // An admin gets past the role: the transfer does not exist.
    expectProblem(
      await server.request('POST', '/admin/transfers/tr_nothing/refund', { key: admin.token, body: { reason: 'duplicate', note: 'x' } }),
      404,
      'not_found',
    );
  });
});

describe('disabling operators', () => {
  it('disables at once: the token answers as an unknown path; again is the same answer; the name stays taken', async () => {
    const gone = await makeOperator('frank', 'support');
    expect((await server.request('GET', '/admin/treasury', { key: gone.token })).status).toBe(200);
    const disabled = await server.request('POST', `/admin/operators/${gone.id}/disable`, {
      key: admin.token,
      body: { note: 'left the company' },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body.operator).toMatchObject({ id: gone.id, name: 'frank', role: 'support', disabledAt: expect.any(String) });

    const unknown = await server.request('GET', '/admin/no-such-path', { key: gone.token });
    for (const path of ['/admin/treasury', '/admin/operators', '/admin/audit', '/admin/openapi.json']) {
      const refused = await server.request('GET', path, { key: gone.token });
      expect(refused.status, path).toBe(404);
      expect(refused.body.code).toBe(unknown.body.code);
    }
    expect((await server.request('POST', `/admin/operators/${viewer.id}/disable`, { key: gone.token, body: { note: 'x' } })).status).toBe(
      404,
    );

    const again = await server.request('POST', `/admin/operators/${gone.id}/disable`, { key: admin.token, body: { note: 'once more' } });
    expect(again.status).toBe(200);
    expect(again.body.operator.disabledAt).toBe(disabled.body.operator.disabledAt);
    const entries = (await server.request('GET', `/admin/audit?target=${gone.id}`, { key: viewer.token })).body.entries;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['operator.create', 'operator.disable']);
    expect(entries[1]).toMatchObject({
      operator: 'Alice',
      note: 'left the company',
      before: { id: gone.id, disabledAt: null },
      after: { id: gone.id, disabledAt: disabled.body.operator.disabledAt },
      requestId: disabled.headers.get('x-request-id'),
    });

    expectProblem(
      await server.request('POST', '/admin/operators', { key: admin.token, body: { name: 'Frank', role: 'viewer', note: 'back' } }),
      409,
      'already_exists',
    );
    const listed = (await server.request('GET', '/admin/operators', { key: viewer.token })).body.operators;
    expect(listed.find((o: { id: string }) => o.id === gone.id).disabledAt).toBe(disabled.body.operator.disabledAt);
  });

  it('refuses an admin disabling itself (400), and an unknown id (404)', async () => {
    const self = await server.request('POST', `/admin/operators/${admin.id}/disable`, { key: admin.token, body: { note: 'bye' } });
    expect(expectProblem(self, 400, 'invalid_request').detail).toContain('itself');
    expectProblem(
      await server.request('POST', '/admin/operators/op_nobody/disable', { key: admin.token, body: { note: 'x' } }),
      404,
      'not_found',
    );
    expectProblem(
      await server.request('POST', `/admin/operators/${viewer.id}/disable`, { key: admin.token, body: { note: '  ' } }),
      400,
      'invalid_request',
    );
    expect((await server.request('GET', '/admin/operators', { key: viewer.token })).status).toBe(200);
  });
});

describe('the audit log', () => {
  it('records each operator write with who (env for OPERATOR_TOKEN), the request, and no secret', async () => {
    const entry = (await server.request('GET', `/admin/audit?target=${admin.id}`, { key: viewer.token })).body.entries[0];
    expect(entry).toEqual({
      id: expect.stringMatching(/^\d+$/),
      at: expect.any(String),
      operator: 'env',
      action: 'operator.create',
      target: admin.id,
      before: null,
      after: { id: admin.id, name: 'Alice', role: 'admin', createdAt: expect.any(String), disabledAt: null },
      note: 'Alice joins',
      requestId: admin.requestId,
    });
    const byAlice = (await server.request('GET', `/admin/audit?operator=alice&target=${viewer.id}`, { key: viewer.token })).body.entries;
    expect(byAlice).toHaveLength(1);
    expect(byAlice[0]).toMatchObject({ operator: 'Alice', action: 'operator.create' });
  });

  it('pages oldest first after an id, and filters by operator and target', async () => {
    const all = (await server.request('GET', '/admin/audit?limit=200', { key: viewer.token })).body.entries;
    expect(all.length).toBeGreaterThanOrEqual(4);
    const ids = all.map((e: { id: string }) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
    const first = (await server.request('GET', '/admin/audit?limit=2', { key: viewer.token })).body.entries;
    expect(first).toEqual(all.slice(0, 2));
    const next = (await server.request('GET', `/admin/audit?limit=2&after=${first[1].id}`, { key: viewer.token })).body.entries;
    expect(next).toEqual(all.slice(2, 4));
    const fromEnv = (await server.request('GET', '/admin/audit?operator=ENV', { key: viewer.token })).body.entries;
    expect(fromEnv.length).toBeGreaterThanOrEqual(2);
    expect(fromEnv.every((e: { operator: string }) => e.operator === 'env')).toBe(true);
    expect(fromEnv).toEqual(all.filter((e: { operator: string }) => e.operator === 'env'));
    const past = (await server.request('GET', `/admin/audit?after=${all.at(-1).id}`, { key: viewer.token })).body.entries;
    expect(past).toEqual([]);
    expect((await server.request('GET', '/admin/audit?operator=nobody', { key: viewer.token })).body.entries).toEqual([]);
  });

  it.each(['limit=0', 'limit=201', 'limit=ten', 'after=abc', 'after=-1', 'operator=', 'since=1', 'limit=50&limit=50'])(
    'refuses ?%s with 400',
    async (query) => {
      expectProblem(await server.request('GET', `/admin/audit?${query}`, { key: viewer.token }), 400, 'invalid_request');
    },
  );

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const { db } = server.deps;
    await expect(sql`update audit_log set note = 'changed'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const notes = await db.selectFrom('audit_log').select('note').execute();
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.some((n) => n.note === 'changed')).toBe(false);
  });
});

describe('secrets', () => {
  it('no token or enrolment link shows in the listing, the audit log or the logs', async () => {
    const listing = (await server.request('GET', '/admin/operators', { key: viewer.token })).text;
    expect(JSON.parse(listing).operators.every((o: object) => Object.keys(o).sort().join() === 'createdAt,disabledAt,id,name,role')).toBe(
      true,
    );
    const audit = (await server.request('GET', '/admin/audit?limit=200', { key: viewer.token })).text;
    const logs = server.logs.join('\n');
    expect(secrets.length).toBeGreaterThan(6);
    for (const secret of secrets) {
      expect(listing).not.toContain(secret);
      expect(audit).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    expect(listing).not.toContain(sha256(admin.token));
    expect(audit).not.toContain(sha256(admin.token));
  });
});

describe('/admin/openapi.json', () => {
  /** Every method and path the application registered, read from its route tree (4 characters a level). */
  function registeredRoutes(): Array<{ method: string; path: string }> {
    const routes: Array<{ method: string; path: string }> = [];
    const prefixes: string[] = [];
    for (const line of server.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const match = /^(.*?)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
      if (!match) continue;
      const depth = match[1]!.length / 4;
      const path = `${depth === 0 ? '' : prefixes[depth - 1]}${match[2]}`;
      prefixes[depth] = path;
      for (const method of match[3]?.split(', ') ?? []) routes.push({ method, path });
    }
    return routes;
  }

  it('describes every registered /admin/* route, and nothing else; the public document has none', async () => {
    const response = await server.request('GET', '/admin/openapi.json', { key: viewer.token });
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toBe('3.1.0');
    const described = Object.entries(document.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const admin = registeredRoutes()
      .filter((r) => r.path.startsWith('/admin') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(admin).toContain('POST /admin/operators');
    expect(admin).toContain('GET /admin/treasury');
    expect(admin).toContain('POST /admin/transfers/{id}/refund');
    expect(admin).toContain('POST /admin/operators/{id}/disable');
    expect(described.sort()).toEqual([...new Set(admin)].sort());
    for (const op of Object.values(document.paths as Record<string, Record<string, { security: unknown; operationId: string }>>).flatMap(
      Object.values,
    )) {
      expect(op.security).toEqual([{ operator: [] }]);
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    }

    const published = (await server.request('GET', '/openapi.json')).body;
    expect(Object.keys(published.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
    expect(JSON.stringify(published)).not.toContain('createOperator');
  });

  it('answers 404, as an unknown path, without an operator credential', async () => {
    const unknown = await server.request('GET', '/admin/openapi.jsox');
    for (const key of [undefined, 'po_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG', 'not-a-token']) {
      const response = await server.request('GET', '/admin/openapi.json', key === undefined ? {} : { key });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe(unknown.body.code);
    }
  });
});
