// Freezes through the operator API and what they stop (DESIGN §17, decision 0035): every outgoing
// path of a frozen account answers 403 account_frozen and moves nothing (the books unchanged),
// quotes included, before anything else about the movement; it still signs in, reads and
// receives; scope payouts stops payouts only; each change is audited once and told to the account
// as an event. On PostgreSQL, a freeze in the middle of many concurrent transfers: every transfer
// that committed did so before the freeze, none after. Also the account search and detail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freezeAccount } from '../../src/compliance/freezes/account-freezes.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { accountIdOf, agentTransfer, balanceOf, fund, stablecoinSnapshot } from '../helpers/stablecoin.js';
import { advanceDays, balances, moneySnapshot, send, setUp } from '../helpers/fiat.js';
import { POSTGRES_ONLY, runsIf } from '../helpers/runs-if.js';

const OPERATOR_TOKEN = 'operator-token-for-freeze-tests-0123456789';
let server: TestServer;
let payer: TestUser;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  payer = await registerUser(server);
  await setUp(server, payer, '/agent/setup-link');
});
afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server?.close();
});

const asOperator = (method: string, path: string, body?: unknown) =>
  server.request(method, path, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, ...(body !== undefined ? { body } : {}) });

async function freeze(user: TestUser, scope: 'all' | 'payouts', note = 'test freeze') {
  const response = await asOperator('POST', `/admin/accounts/${await accountIdOf(server, user)}/freeze`, { scope, note });
  expect(response.status).toBe(200);
  return response.body;
}

async function unfreeze(user: TestUser) {
  const response = await asOperator('POST', `/admin/accounts/${await accountIdOf(server, user)}/unfreeze`, { note: 'cleared' });
  expect(response.status).toBe(200);
  return response.body;
}

const books = async () => `${await stablecoinSnapshot(server)}${await moneySnapshot(server)}`;

describe('a frozen account', () => {
  it('is refused on every outgoing path and quote, before anything else, with nothing moved', async () => {
    const frozen = await registerUser(server);
    const other = await registerUser(server);
    await fund(server, frozen, 5_000_000n);
    await freeze(frozen, 'all');
    const before = await books();
    const key = { key: frozen.key };
    const refusals = [
      // No card is set up: still account_frozen, not card_setup_required.
      await send(server, frozen, { recipientHandle: other.handle, amount: 5, currency: 'USD' }),
      await server.request('GET', `/transfers/quote?recipientHandle=${other.handle}&amount=5&currency=USD`, key),
      await agentTransfer(server, frozen, { to: other.handle, amount: 1, currency: 'USDC' }),
      // An unknown recipient and an amount over the balance: the freeze answers first.
      await agentTransfer(server, frozen, { to: 'PA-NOSUCH00', amount: 1, currency: 'USDC' }),
      await agentTransfer(server, frozen, { to: other.handle, amount: 1000, currency: 'USDC' }),
      await server.request('POST', '/stablecoin/transfer', { ...key, body: { recipientEmail: other.email, amount: 1, currency: 'USDC' } }),
      await server.request('GET', `/agent/transfer/quote?to=${other.handle}&amount=1`, key),
      await server.request('POST', '/stablecoin/withdraw', {
        ...key,
        body: { amount: 2, currency: 'USDC', address: other.depositAddress },
      }),
      await server.request('GET', `/stablecoin/withdraw/quote?amount=2&currency=USDC&address=${other.depositAddress}`, key),
      await server.request('GET', '/nano/quote?amount=10', { ...key, headers: { 'X-Payment-Source': 'balance' } }),
    ];
    for (const response of refusals) expectProblem(response, 403, 'account_frozen');
    expect(await books()).toBe(before);

    // It signs in, reads and receives.
    expect((await server.request('GET', '/account', key)).status).toBe(200);
    expect(
      (await server.request('POST', '/agent/register', { body: { email: frozen.email, password: frozen.password, name: frozen.name } }))
        .status,
    ).toBe(200);
    await fund(server, other, 2_000_000n);
    expect((await agentTransfer(server, other, { to: frozen.handle, amount: 1, currency: 'USDC' })).status).toBe(200);
    expect(await balanceOf(server, frozen)).toMatchObject({ USDC: '5.985100' });
    expect((await send(server, payer, { recipientHandle: frozen.handle, amount: 3, currency: 'USD' })).status).toBe(200);

    // Unfrozen, it sends again.
    await unfreeze(frozen);
    expect((await agentTransfer(server, frozen, { to: other.handle, amount: 1, currency: 'USDC' })).status).toBe(200);
  });

  it('scope payouts stops payouts only: transfers go, received money stays until the unfreeze', async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    await setUp(server, user, '/agent/connect-link');
    await fund(server, user, 2_000_000n);
    await freeze(user, 'payouts');
    expect((await send(server, payer, { recipientHandle: user.handle, amount: 7, currency: 'USD' })).status).toBe(200);
    await advanceDays(server, 1);
    expect((await balances(server, user)).USD).toMatchObject({ available: '7.00' });
    expect(
      (
        await server.deps.db
          .selectFrom('payouts')
          .select('id')
          .where('account_id', '=', await accountIdOf(server, user))
          .execute()
      ).length,
    ).toBe(0);
    expect((await agentTransfer(server, user, { to: other.handle, amount: 1, currency: 'USDC' })).status).toBe(200);

    await unfreeze(user);
    await advanceDays(server, 1);
    expect((await balances(server, user)).USD).toMatchObject({ available: '0.00' });
  });

  it('each change is audited once and told to the account; a repeat changes nothing', async () => {
    const user = await registerUser(server);
    const id = String(await accountIdOf(server, user));
    const first = await freeze(user, 'all', 'suspected fraud');
    expect(first).toMatchObject({ changed: true, account: { id, frozen: { scope: 'all', by: 'env' } } });
    expect((await freeze(user, 'all', 'again')).changed).toBe(false);
    expect((await unfreeze(user)).changed).toBe(true);
    expect((await unfreeze(user)).changed).toBe(false);
    const audit = await server.deps.db.selectFrom('audit_log').selectAll().where('target', '=', id).orderBy('id').execute();
    expect(audit.map((e) => [e.operator, e.action, e.note])).toEqual([
      ['env', 'account.freeze', 'suspected fraud'],
      ['env', 'account.unfreeze', 'cleared'],
    ]);
    const events = await server.request('GET', '/events?limit=100', { key: user.key });
    const own = events.body.events.filter((e: { type: string }) => e.type.startsWith('account.'));
    expect(own.map((e: { type: string }) => e.type)).toEqual(['account.frozen', 'account.unfrozen']);
    expect(own[0].data).toEqual({ id: first.account.frozen.id, scope: 'all', since: first.account.frozen.since });

    expectProblem(await asOperator('POST', `/admin/accounts/${id}/freeze`, { scope: 'all', note: ' ' }), 400);
    expectProblem(await asOperator('POST', `/admin/accounts/${id}/freeze`, { scope: 'some', note: 'x' }), 400);
    expectProblem(await asOperator('POST', '/admin/accounts/999999999/freeze', { scope: 'all', note: 'x' }), 404, 'not_found');
    // A viewer reads but cannot freeze.
    const made = await asOperator('POST', '/admin/operators', { name: `viewer${Date.now()}`, role: 'viewer', note: 'for the test' });
    expect(made.status).toBe(201);
    const asViewer = { headers: { authorization: `Bearer ${made.body.token}` } };
    expect((await server.request('GET', `/admin/accounts/${id}`, asViewer)).status).toBe(200);
    expectProblem(
      await server.request('POST', `/admin/accounts/${id}/freeze`, { ...asViewer, body: { scope: 'all', note: 'x' } }),
      403,
      'operator_forbidden',
    );
    expect(await server.deps.db.selectFrom('audit_log').select('id').where('target', '=', id).execute()).toHaveLength(2);
    // Without an operator credential: as an unknown path.
    expect(
      (await server.request('POST', `/admin/accounts/${id}/freeze`, { key: user.key, body: { scope: 'all', note: 'x' } })).status,
    ).toBe(404);
  });
});

describe('account search and detail', () => {
  it('finds an account by id, e-mail, handle, phone and deposit address, whole or by prefix', async () => {
    const user = await registerUser(server);
    const phone = `+4420${String(Date.now()).slice(-7)}`;
    expect((await server.request('PATCH', '/account', { key: user.key, body: { phone } })).status).toBe(200);
    const id = String(await accountIdOf(server, user));
    const queries = [
      id,
      user.email,
      user.email.slice(0, 12),
      user.handle,
      user.handle.slice(0, 6).toLowerCase(),
      phone,
      user.depositAddress,
      user.depositAddress.slice(0, 12).toLowerCase(),
    ];
    for (const q of queries) {
      const response = await asOperator('GET', `/admin/accounts?q=${encodeURIComponent(q)}`);
      expect(response.status, q).toBe(200);
      expect(response.body.accounts.length).toBeLessThanOrEqual(50);
      expect(response.body.accounts, q).toContainEqual({
        id,
        email: user.email,
        agentHandle: user.handle,
        name: user.name,
        createdAt: expect.any(String),
        frozen: null,
      });
    }
    expect((await asOperator('GET', '/admin/accounts?q=nobody-at-all%40example.org')).body).toEqual({ accounts: [] });
    expectProblem(await asOperator('GET', '/admin/accounts?q='), 400);
  });

  it('shows one account: profile without secrets, balances on both rails, freeze, transfers, endpoints, keys; 404 for an unknown id', async () => {
    const user = await registerUser(server);
    await fund(server, user, 3_000_000n);
    expect((await send(server, payer, { recipientHandle: user.handle, amount: 4, currency: 'EUR' })).status).toBe(200);
    expect((await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: 'https://example.com/hook' } })).status).toBe(
      201,
    );
    await freeze(user, 'payouts');
    const id = String(await accountIdOf(server, user));
    const response = await asOperator('GET', `/admin/accounts/${id}`);
    expect(response.status).toBe(200);
    const account = response.body.account;
    expect(account).toMatchObject({ id, agentHandle: user.handle, email: user.email, name: user.name, activeKeys: 1 });
    // Its effective limits, as GET /account/limits shows them to the user, and no operator override.
    expect(account.limits.overrides).toEqual([]);
    expect(account.limits.effective).toContainEqual(expect.objectContaining({ rail: 'stablecoin', currency: 'USDC', window: 'day' }));
    expect(account.frozen).toMatchObject({ scope: 'payouts', by: 'env' });
    expect(account.balances.fiat).toContainEqual({ currency: 'EUR', available: '4.00', pending: '0.00', held: '0.00', owed: '0.00' });
    expect(account.balances.stablecoin).toContainEqual({ currency: 'USDC', available: '3.000000', pending: '0.000000' });
    expect(account.recentTransfers.fiat).toHaveLength(1);
    expect(account.recentTransfers.fiat[0]).toMatchObject({ direction: 'received', amount: '4.00', currency: 'EUR' });
    expect(account.webhookEndpoints).toEqual([expect.objectContaining({ url: 'https://example.com/hook', recentFailures: 0 })]);
    expect(account.openDisputes).toEqual([]);
    expect(JSON.stringify(account)).not.toMatch(/password|key_hash|secret/i);
    expectProblem(await asOperator('GET', '/admin/accounts/999999999'), 404, 'not_found');
  });
});

describe.runIf(runsIf(process.env.DATABASE_URL, POSTGRES_ONLY))('a freeze racing transfers', () => {
  it('every transfer answered 2xx committed before the freeze, none after; the rest are account_frozen', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await fund(server, sender, 100_000_000n);
    const senderId = await accountIdOf(server, sender);
    const count = async (db = server.deps.db) =>
      Number(
        (
          await db
            .selectFrom('stablecoin_transfers')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('sender_account_id', '=', senderId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Requests keep arriving while the freeze runs: it starts once some have been answered.
    let answered = 0;
    const requests = Array.from({ length: 80 }, (_, i) =>
      new Promise((resolve) => setTimeout(resolve, i * 5))
        .then(() => agentTransfer(server, sender, { to: recipient.handle, amount: 0.5, currency: 'USDC' }))
        .finally(() => answered++),
    );
    for (let waited = 0; answered < 5 && waited < 30_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    // The freeze, counting the sender's transfers once it holds the account: none may commit after.
    const seenByFreeze = await server.deps.db.transaction().execute(async (trx) => {
      await freezeAccount(trx, {
        accountId: senderId,
        scope: 'all',
        by: { operator: 'race', requestId: null },
        note: 'race',
        at: new Date(),
      });
      return count(trx);
    });
    const answers = await Promise.all(requests);
    const ok = answers.filter((r) => r.status === 200);
    for (const r of answers.filter((a) => a.status !== 200)) expectProblem(r, 403, 'account_frozen');
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length).toBeLessThan(answers.length);
    expect(await count()).toBe(seenByFreeze);
    expect(await count()).toBe(ok.length);
    expect(await balanceOf(server, sender)).toMatchObject({ USDC: (100 - ok.length * 0.5).toFixed(6) });
  });
});
