// Per-account limits (DESIGN §17): the defaults and a new account's tenth, GET /account/limits,
// the 429 limit_exceeded with its members and Retry-After on every path and its quotes, a failed
// movement giving its volume back, an operator's override (audited), and the rolling window as
// the sandbox clock moves. The racing requests at the edge of a limit are in account-limits-race.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, moneySnapshot, send, setUp } from '../helpers/fiat.js';
import { accountIdOf, agentTransfer, fund, stablecoinSnapshot } from '../helpers/stablecoin.js';
import { freshAddress, withdraw } from '../helpers/withdrawals.js';

const OPERATOR_TOKEN = 'operator-token-for-limit-tests-0123456789';
const HOUR_MS = 3600 * 1000;

let server: TestServer;
beforeAll(async () => {
  // '' is no LIMITS_FILE: the defaults.
  server = await startTestServer({ LIMITS_FILE: '', OPERATOR_TOKEN });
});
afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function limitsOf(user: TestUser): Promise<Record<string, { rail: string; limit: string; used: string; remaining: string }>> {
  const response = await server.request('GET', '/account/limits', { key: user.key });
  expect(response.status).toBe(200);
  return Object.fromEntries(response.body.limits.map((l: any) => [`${l.currency}/${l.window}`, l]));
}

function setLimits(accountId: number, body: unknown, token = OPERATOR_TOKEN) {
  return server.request('PUT', `/admin/accounts/${accountId}/limits`, { key: token, body });
}

function retryAfterOf(response: { headers: Headers }): number {
  return Number(response.headers.get('retry-after'));
}

describe('defaults', () => {
  it('a new account has a tenth of the default limits, on every rail, currency and window', async () => {
    const user = await registerUser(server);
    const limits = await limitsOf(user);
    expect(Object.keys(limits)).toHaveLength(12);
    expect(limits['USD/day']).toEqual({
      rail: 'fiat',
      currency: 'USD',
      window: 'day',
      limit: '1000.00',
      used: '0.00',
      remaining: '1000.00',
    });
    expect(limits['GBP/month']).toMatchObject({ limit: '5000.00' });
    expect(limits['JPY/day']).toMatchObject({ rail: 'fiat', limit: '150000' });
    expect(limits['JPY/month']).toMatchObject({ limit: '750000' });
    expect(limits['USDC/day']).toEqual({
      rail: 'stablecoin',
      currency: 'USDC',
      window: 'day',
      limit: '1000',
      used: '0',
      remaining: '1000',
    });
    expect(limits['EURC/month']).toMatchObject({ limit: '5000' });
    expect((await server.request('GET', '/account/limits')).status).toBe(401);
  });
});

describe('fiat transfers', () => {
  it('count amount and fee; beyond the limit 429 limit_exceeded with limit, window, remaining and Retry-After, nothing moves, and the quote refuses the same', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    expect((await send(server, sender, { recipientHandle: recipient.handle, amount: 900, currency: 'USD' })).status).toBe(200);
    // 900 and its 2.49% fee, 22.41.
    expect((await limitsOf(sender))['USD/day']).toMatchObject({ used: '922.41', remaining: '77.59' });
    expect((await limitsOf(sender))['USD/month']).toMatchObject({ used: '922.41', remaining: '4077.59' });

    const before = await moneySnapshot(server);
    const refused = expectProblem(
      await send(server, sender, { recipientHandle: recipient.handle, amount: 76, currency: 'USD' }),
      429,
      'limit_exceeded',
    );
    expect(refused).toMatchObject({ limit: '1000.00', window: 'day', remaining: '77.59' });
    // The 900 leaves the counted window 24 to 25 hours after it was sent (hourly buckets).
    const retryAfter = retryAfterOf(await send(server, sender, { recipientHandle: recipient.handle, amount: 76, currency: 'USD' }));
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(25 * 3600);
    expect(await moneySnapshot(server)).toBe(before);

    const quote = await server.request('GET', `/transfers/quote?recipientHandle=${recipient.handle}&amount=76&currency=USD`, {
      key: sender.key,
    });
    expect(expectProblem(quote, 429, 'limit_exceeded')).toMatchObject({ remaining: '77.59', window: 'day' });
    expect(Math.abs(retryAfterOf(quote) - retryAfter)).toBeLessThanOrEqual(2);
    // 75 and its fee (1.87) fit; another currency has a limit of its own.
    expect(
      (await server.request('GET', `/transfers/quote?recipientHandle=${recipient.handle}&amount=75&currency=USD`, { key: sender.key }))
        .status,
    ).toBe(200);
    expect((await send(server, sender, { recipientHandle: recipient.handle, amount: 75, currency: 'USD' })).status).toBe(200);
    expect((await send(server, sender, { recipientHandle: recipient.handle, amount: 900, currency: 'EUR' })).status).toBe(200);
    expect((await limitsOf(sender))['USD/day']).toMatchObject({ used: '999.28', remaining: '0.72' });
  });

  it('an amount over the limit by itself is refused without Retry-After: the detail says it can never be sent at once', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    const response = await send(server, sender, { recipientHandle: recipient.handle, amount: 1000, currency: 'USD' });
    const problem = expectProblem(response, 429, 'limit_exceeded');
    expect(problem).toMatchObject({ limit: '1000.00', window: 'day', remaining: '1000.00' });
    expect(problem.detail).toMatch(/never/);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('a declined card gives its volume back', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link', 'decline');
    expectProblem(await send(server, sender, { recipientHandle: recipient.handle, amount: 900, currency: 'GBP' }), 402, 'card_declined');
    expect((await limitsOf(sender))['GBP/day']).toMatchObject({ used: '0.00', remaining: '1000.00' });
  });
});

describe('stablecoin transfers and withdrawals', () => {
  it('count against the token’s limit; the transfer, its quote, the withdrawal and its quote refuse beyond it', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await fund(server, sender, 3_000_000_000n);
    expect((await agentTransfer(server, sender, { to: recipient.handle, amount: 900, currency: 'USDC' })).status).toBe(200);
    expect((await limitsOf(sender))['USDC/day']).toMatchObject({ used: '900', remaining: '100' });

    const before = await stablecoinSnapshot(server);
    const refused = await agentTransfer(server, sender, { to: recipient.handle, amount: 100.5, currency: 'USDC' });
    expect(expectProblem(refused, 429, 'limit_exceeded')).toMatchObject({ limit: '1000', window: 'day', remaining: '100' });
    expect(retryAfterOf(refused)).toBeGreaterThan(24 * 3600 - 60);
    const quote = await server.request('GET', `/agent/transfer/quote?to=${recipient.handle}&amount=100.5`, { key: sender.key });
    expect(expectProblem(quote, 429, 'limit_exceeded')).toMatchObject({ remaining: '100' });
    const address = freshAddress();
    expectProblem(await withdraw(server, sender, { amount: 101, currency: 'USDC', address }), 429, 'limit_exceeded');
    const withdrawQuote = await server.request('GET', `/stablecoin/withdraw/quote?amount=101&currency=USDC&address=${address}`, {
      key: sender.key,
    });
    expect(expectProblem(withdrawQuote, 429, 'limit_exceeded')).toMatchObject({ window: 'day', remaining: '100' });
    expect(await stablecoinSnapshot(server)).toBe(before);
    // EURC is limited on its own.
    await fund(server, sender, 1_000_000_000n, 'EURC');
    expect((await agentTransfer(server, sender, { to: recipient.handle, amount: 950, currency: 'EURC' })).status).toBe(200);
    expect((await limitsOf(sender))['EURC/day']).toMatchObject({ used: '950', remaining: '50' });
  });
});

describe('an operator’s override', () => {
  it('sets and clears one account’s limit in one currency, audited as account.limits with before and after', async () => {
    const user = await registerUser(server);
    const recipient = await registerUser(server);
    const id = await accountIdOf(server, user);
    await setUp(server, user, '/agent/setup-link');

    const set = await setLimits(id, { currency: 'USD', day: '50', note: 'new business, first week' });
    expect(set.status).toBe(200);
    expect(set.body.limits.find((l: any) => l.currency === 'USD' && l.window === 'day')).toMatchObject({ limit: '50.00' });
    expect((await limitsOf(user))['USD/day']).toMatchObject({ limit: '50.00', remaining: '50.00' });
    // The month keeps its default.
    expect((await limitsOf(user))['USD/month']).toMatchObject({ limit: '5000.00' });
    expectProblem(await send(server, user, { recipientHandle: recipient.handle, amount: 49, currency: 'USD' }), 429, 'limit_exceeded');

    const entry = await server.deps.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target', '=', String(id))
      .where('action', '=', 'account.limits')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ operator: 'env', note: 'new business, first week' });
    expect(entry.before).toEqual({ currency: 'USD', day: null, month: null });
    expect(entry.after).toEqual({ currency: 'USD', day: '50.00', month: null });
    // The same values again (a request resent after its answer was lost) record nothing more.
    expect((await setLimits(id, { currency: 'USD', day: '50', note: 'new business, first week' })).status).toBe(200);
    const entries = await server.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('target', '=', String(id))
      .where('action', '=', 'account.limits')
      .execute();
    expect(entries).toHaveLength(1);

    expect((await setLimits(id, { currency: 'USD', day: null, month: 20000, note: 'verified' })).status).toBe(200);
    expect((await limitsOf(user))['USD/day']).toMatchObject({ limit: '1000.00' });
    expect((await limitsOf(user))['USD/month']).toMatchObject({ limit: '20000.00' });
    expect((await setLimits(id, { currency: 'USD', month: null, note: 'back to the defaults' })).status).toBe(200);
    expect((await limitsOf(user))['USD/month']).toMatchObject({ limit: '5000.00' });
    expect(await server.deps.db.selectFrom('account_limit_overrides').selectAll().where('account_id', '=', id).execute()).toEqual([]);
  });

  it('refuses a missing note, no window, a bad amount and an unknown account, and is an unknown path without an operator credential', async () => {
    const user = await registerUser(server);
    const id = await accountIdOf(server, user);
    expectProblem(await setLimits(id, { currency: 'USD', day: '50' }), 400, 'invalid_request');
    expectProblem(await setLimits(id, { currency: 'USD', day: '50', note: '' }), 400, 'invalid_request');
    expectProblem(await setLimits(id, { currency: 'USD', note: 'nothing' }), 400, 'invalid_request');
    expectProblem(await setLimits(id, { currency: 'USD', day: '5.001', note: 'x' }), 400, 'invalid_amount');
    expectProblem(await setLimits(id, { currency: 'XYZ', day: '5', note: 'x' }), 400, 'invalid_request');
    expectProblem(await setLimits(999_999_999, { currency: 'USD', day: '5', note: 'x' }), 404, 'not_found');
    expect((await setLimits(id, { currency: 'USD', day: '5', note: 'x' }, user.key)).status).toBe(404);
    expect(await server.deps.db.selectFrom('account_limit_overrides').selectAll().where('account_id', '=', id).execute()).toEqual([]);
  });
});

describe('the rolling window', () => {
  it('frees volume as it ages out: the Retry-After of a refusal is when the amount fits', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    const id = await accountIdOf(server, sender);
    await fund(server, sender, 1_000_000_000n);
    expect((await setLimits(id, { currency: 'USDC', day: 100, month: 250, note: 'window test' })).status).toBe(200);
    expect((await agentTransfer(server, sender, { to: recipient.handle, amount: 60, currency: 'USDC' })).status).toBe(200);
    await server.deps.sandboxClock!.advance(BigInt(20 * HOUR_MS));
    expect((await agentTransfer(server, sender, { to: recipient.handle, amount: 30, currency: 'USDC' })).status).toBe(200);
    const refused = await agentTransfer(server, sender, { to: recipient.handle, amount: 20, currency: 'USDC' });
    expect(expectProblem(refused, 429, 'limit_exceeded')).toMatchObject({ window: 'day', remaining: '10' });
    // The 60 leaves between 4 and 5 hours from now; until then the 20 does not fit.
    const retryAfter = retryAfterOf(refused);
    expect(retryAfter).toBeGreaterThan(4 * 3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(5 * 3600);
    await server.deps.sandboxClock!.advance(BigInt((retryAfter - 5) * 1000));
    expectProblem(await agentTransfer(server, sender, { to: recipient.handle, amount: 20, currency: 'USDC' }), 429, 'limit_exceeded');
    await server.deps.sandboxClock!.advance(5000n);
    expect((await agentTransfer(server, sender, { to: recipient.handle, amount: 20, currency: 'USDC' })).status).toBe(200);
    expect((await limitsOf(sender))['USDC/day']).toMatchObject({ used: '50', remaining: '50' });
    // The 30 days still count all three.
    expect((await limitsOf(sender))['USDC/month']).toMatchObject({ used: '110', remaining: '140' });
  });

  it('a week on, an account has the full defaults', async () => {
    const user = await registerUser(server);
    expect((await limitsOf(user))['USD/day']).toMatchObject({ limit: '1000.00' });
    await server.deps.sandboxClock!.advance(BigInt(7 * 24 * HOUR_MS));
    expect((await limitsOf(user))['USD/day']).toMatchObject({ limit: '10000.00' });
    expect((await limitsOf(user))['JPY/month']).toMatchObject({ limit: '7500000' });
  });

  it('buckets no window reads any more are deleted by the jobs', async () => {
    expect(await server.deps.db.selectFrom('limit_volume').select('account_id').execute()).not.toEqual([]);
    // The clock moved a week and a day; 26 more days put every bucket of this file beyond 32 days.
    await advanceDays(server, 26);
    expect(await server.deps.db.selectFrom('limit_volume').select('account_id').execute()).toEqual([]);
  });
});
