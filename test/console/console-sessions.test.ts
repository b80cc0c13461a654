// Console sessions end after 30 minutes without a request and after 12 hours in all, whatever the
// activity (DESIGN §18), by the service clock; a sealed TOTP secret opens only for its operator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../helpers/test-database.js';
import type { Database } from '../../src/db/database.js';
import { createOperators } from '../../src/compliance/operators/operators-service.js';
import { createConsoleSessions, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/console/console-sessions.js';
import { createConsoleSecrets } from '../../src/console/console-secrets.js';

let database: Database;
let operatorId: string;
let nowMs = Date.UTC(2026, 0, 5, 9, 0, 0);
const clock = { now: () => new Date(nowMs) };
const secrets = createConsoleSecrets(new Uint8Array(32).fill(7));

beforeAll(async () => {
  database = await openTestDatabase();
  const operators = createOperators({ db: database.db, clock, publicUrl: 'http://peerpay.test', bootstrapToken: undefined });
  operatorId = (await operators.create({ name: 'sam', role: 'viewer', note: 'test' }, { operator: 'env', requestId: null })).operator.id;
});

afterAll(async () => {
  await database?.close();
});

describe('console sessions', () => {
  it('end after 30 minutes idle, and not before', async () => {
    const sessions = createConsoleSessions({ db: database.db, clock, secrets });
    const token = await sessions.start(operatorId);
    nowMs += SESSION_IDLE_MS - 1000;
    expect((await sessions.resume(token))?.name).toBe('sam');
    // Each request restarts the idle time.
    nowMs += SESSION_IDLE_MS - 1000;
    expect((await sessions.resume(token))?.role).toBe('viewer');
    nowMs += SESSION_IDLE_MS + 1000;
    expect(await sessions.resume(token)).toBeNull();
    // Ended for good: going back in time does not revive it.
    nowMs -= SESSION_IDLE_MS + 1000;
    expect(await sessions.resume(token)).toBeNull();
  });

  it('end after 12 hours in all, even when used every few minutes', async () => {
    const sessions = createConsoleSessions({ db: database.db, clock, secrets });
    const token = await sessions.start(operatorId);
    const started = nowMs;
    while (nowMs + 10 * 60_000 < started + SESSION_ABSOLUTE_MS) {
      nowMs += 10 * 60_000;
      expect(await sessions.resume(token)).not.toBeNull();
    }
    nowMs = started + SESSION_ABSOLUTE_MS + 1000;
    expect(await sessions.resume(token)).toBeNull();
  });

  it('give each session its own CSRF token, and know no token it did not issue', async () => {
    const sessions = createConsoleSessions({ db: database.db, clock, secrets });
    const a = await sessions.resume(await sessions.start(operatorId));
    const b = await sessions.resume(await sessions.start(operatorId));
    expect(a!.csrfToken).not.toBe(b!.csrfToken);
    expect(await sessions.resume('not-a-session')).toBeNull();
    const stored = await database.db.selectFrom('console_sessions').select('token_hash').execute();
    for (const row of stored) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('seal TOTP secrets so that they open only for their operator and seed', () => {
    const sealed = secrets.seal('JBSWY3DPEHPK3PXP', 'op_1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(secrets.open(sealed, 'op_1')).toBe('JBSWY3DPEHPK3PXP');
    expect(secrets.open(sealed, 'op_2')).toBeNull();
    expect(createConsoleSecrets(new Uint8Array(32).fill(8)).open(sealed, 'op_1')).toBeNull();
  });
});
