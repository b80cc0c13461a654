// Books against custody (DESIGN §15): the check compares, per token, what the ledger says peerpay
// holds on chain with what the hot wallet and every deposit address hold at one block. Chain >=
// books is fine (deposits not yet credited are on chain first); books > chain is a shortfall: an
// error log, a row that readiness reads in every process, and metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { checkCustody, checkCustodyIfDue } from '../../src/books/custody-check.js';
import { readCustodyStatus } from '../../src/books/custody-status.js';
import { registerCustodyMetrics } from '../../src/books/custody-metrics.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { drainDeposits, faucet, mined } from '../helpers/stablecoin-chain.js';
import { fund } from '../helpers/stablecoin.js';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  alice = await registerUser(server);
});
afterAll(async () => {
  await server?.close();
});

describe('the custody check', () => {
  it('before any check, the status is ok with no time', async () => {
    expect(await readCustodyStatus(server.deps.db)).toEqual({ ok: true, checkedAt: null, failing: [] });
  });

  it('is ok when the books equal the chain, and when the chain holds more (a deposit not yet credited)', async () => {
    await mined(server, await faucet(server, { address: alice.depositAddress, amount: 5, currency: 'USDC' }));
    // Not yet credited: on chain, not on the books.
    let results = await checkCustody(server.deps, server.app.log);
    const usdc = () => results.find((r) => r.token === 'USDC')!;
    expect(usdc().ok).toBe(true);
    expect(usdc().chainMinor - usdc().booksMinor).toBeGreaterThanOrEqual(5_000_000n);
    await drainDeposits(server);
    results = await checkCustody(server.deps, server.app.log);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(usdc().booksMinor).toBe(5_000_000n);
    const status = await readCustodyStatus(server.deps.db);
    expect(status.ok).toBe(true);
    expect(status.checkedAt).toBeInstanceOf(Date);
    expect(status.failing).toEqual([]);
  });

  it('finds a shortfall when the books hold more than the chain: error log, status for readiness, metrics', async () => {
    // Credited on the books with nothing on chain behind it (what a wiped chain would leave).
    await fund(server, alice, 7_000_000n, 'EURC');
    const results = await checkCustody(server.deps, server.app.log);
    const eurc = results.find((r) => r.token === 'EURC')!;
    expect(eurc.ok).toBe(false);
    expect(eurc.booksMinor - eurc.chainMinor).toBe(7_000_000n);
    expect(results.find((r) => r.token === 'USDC')!.ok).toBe(true);

    const status = await readCustodyStatus(server.deps.db);
    expect(status.ok).toBe(false);
    // Which token and since when, never the amounts (readiness is public; the figures are in the log and metrics).
    const row = await server.deps.db
      .selectFrom('custody_checks')
      .select('checked_at')
      .where('token', '=', 'EURC')
      .executeTakeFirstOrThrow();
    expect(status.failing).toEqual([{ token: 'EURC', since: new Date(row.checked_at) }]);

    const line = server.logs.map((l) => JSON.parse(l)).find((l) => l.msg?.startsWith('custody shortfall'));
    expect(line).toMatchObject({ level: 50, token: 'EURC', shortfallMinor: '7000000' });

    const registry = new Registry();
    registerCustodyMetrics(registry, { db: server.deps.db });
    const text = await registry.metrics();
    expect(text).toMatch(/^peerpay_custody_check_ok 0$/m);
    expect(text).toMatch(/^peerpay_custody_shortfall_minor\{token="EURC"\} 7000000$/m);
    expect(text).toMatch(/^peerpay_custody_shortfall_minor\{token="USDC"\} 0$/m);
  });

  it('the job checks at most once per interval, across processes (by the recorded time)', async () => {
    expect(await checkCustodyIfDue(server.deps, { intervalMs: 60_000 })).toBe(0);
    expect(await checkCustodyIfDue(server.deps, { intervalMs: 0 })).toBe(2);
  });
});
