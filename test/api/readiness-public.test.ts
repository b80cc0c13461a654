// GET /health/ready is public: with a real custody shortfall and a hot wallet low on gas it says
// which checks fail and since when, and never a figure (no amount, wei, block number or address);
// the operator's treasury view and the metrics keep the figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCustody } from '../../src/books/custody-check.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { fund } from '../helpers/stablecoin.js';
import { faucet, mined } from '../helpers/stablecoin-chain.js';

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789abcdef';
let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
});
afterAll(async () => {
  await server?.close();
});

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z/g;

/** Every text readiness wrote (the detail and each check's), less its ISO timestamps: no digit may be left. */
function figuresIn(problem: { detail: string; checks: Record<string, { detail?: string }> }): string[] {
  const texts = [problem.detail, ...Object.values(problem.checks).map((check) => check.detail ?? '')];
  return texts.flatMap((text) => text.replace(ISO_TIME, '<time>').match(/\S*\d\S*/g) ?? []);
}

describe('GET /health/ready with a custody shortfall and low gas', () => {
  it('names the failing checks, the token and since when, and no figure; the treasury view and metrics have them', async () => {
    user = await registerUser(server);
    // Credited on the books with nothing on chain behind it: a real shortfall for the custody check.
    await fund(server, user, 7_123_456n, 'USDC');
    const [first] = (await checkCustody(server.deps, server.app.log)).filter((r) => r.token === 'USDC');
    expect(first!.ok).toBe(false);
    const firstFailure = (
      await server.deps.db.selectFrom('custody_checks').select('checked_at').where('token', '=', 'USDC').executeTakeFirstOrThrow()
    ).checked_at;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await checkCustody(server.deps, server.app.log);

    const sandbox = server.deps.chain.sandboxChain!;
    const hot = server.deps.wallets.hotWallet.address;
    const full = await server.deps.chain.chain.getNativeBalance(hot);
    await sandbox.setNativeBalance({ address: hot, wei: 123_456_789_000_000_000n });
    try {
      const ready = await server.request('GET', '/health/ready');
      const problem = expectProblem(ready, 503, 'not_ready');
      expect(problem.checks.custody).toEqual({
        status: 'fail',
        // Since the first check that found it, not the last.
        detail: `custody check failing: the books exceed chain custody for USDC since ${new Date(firstFailure).toISOString()}`,
      });
      expect(problem.checks.gas).toEqual({ status: 'fail', detail: "the hot wallet's gas is below HOT_WALLET_MIN_GAS_WEI: top it up" });
      expect(problem.detail).toMatch(/custody: custody check failing.*USDC since .*; gas: the hot wallet's gas is below/);
      expect(figuresIn(problem)).toEqual([]);
      expect(ready.text.toLowerCase()).not.toContain(hot.slice(2).toLowerCase());

      // The operator still sees the figures.
      const view = await server.request('GET', '/admin/treasury', { key: OPERATOR_TOKEN });
      expect(view.body.gas).toMatchObject({ balanceWei: '123456789000000000', low: true });
      const usdc = view.body.tokens.find((t: { token: string }) => t.token === 'USDC');
      expect(usdc.custody.lastCheck.ok).toBe(false);
      expect(BigInt(usdc.custody.lastCheck.books.replace('.', '')) - BigInt(usdc.custody.lastCheck.chain.replace('.', ''))).toBe(
        first!.booksMinor - first!.chainMinor,
      );
      const metrics = (await server.request('GET', '/metrics')).text;
      expect(metrics).toMatch(/^peerpay_hot_wallet_gas_wei 123456789000000000$/m);
      expect(metrics).toContain(`peerpay_custody_shortfall_minor{token="USDC"} ${first!.booksMinor - first!.chainMinor}`);
    } finally {
      await sandbox.setNativeBalance({ address: hot, wei: full });
    }
  });

  it('a check that does not answer in time is named without its timeout', async () => {
    const chain = server.deps.chain.chain;
    const original = chain.getBlockNumber.bind(chain);
    chain.getBlockNumber = () => new Promise(() => {});
    try {
      const problem = expectProblem(await server.request('GET', '/health/ready'), 503, 'not_ready');
      expect(problem.checks.chain).toEqual({ status: 'fail', detail: 'the chain did not answer in time' });
      expect(figuresIn(problem)).toEqual([]);
    } finally {
      chain.getBlockNumber = original;
    }
  });

  it('once a check finds custody whole again, the failure and its time are gone', async () => {
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 8, currency: 'USDC' }));
    expect((await checkCustody(server.deps, server.app.log)).every((r) => r.ok)).toBe(true);
    const row = await server.deps.db.selectFrom('custody_checks').selectAll().where('token', '=', 'USDC').executeTakeFirstOrThrow();
    expect(row.failing_since).toBeNull();
    const ready = await server.request('GET', '/health/ready');
    expect(ready.status, ready.text).toBe(200);
    expect(ready.body.checks.custody).toEqual({ status: 'pass' });
  });
});
