// The console's account and money pages over HTTP, as a browser without JavaScript uses them
// (DESIGN §17, §18): every page answers for every role; a viewer is shown no action form and a
// forged POST is refused with 403 and changes nothing; support freezes, sets limits and unfreezes
// (each leading to the account page that lists the audit entry written), and is refused a refund;
// admin refunds a card transfer once even when the form is sent twice; refused input is answered
// 400 with its reason and changes nothing; unknown ids are 404 pages. The Disputes page lists a
// dispute, the debt it left and the payout; admin reverses the payout and writes the rest off.
// The Webhooks page lists a failing endpoint with its failures and last error. Support releases a
// blocked deposit from the account page, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { recordBlockedDeposit } from '../../src/stablecoin/deposits/deposit-ledger.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, send, setUp } from '../helpers/fiat.js';
import { accountIdOf, agentTransfer, fund } from '../helpers/stablecoin.js';
import { addOperator, csrfOf, enrol, OPERATOR_TOKEN, signInHttp, type HttpSession } from './support/operators.js';

let server: TestServer;
let operators: Record<'viewer' | 'support' | 'admin', Awaited<ReturnType<typeof enrol>>>;
let viewer: HttpSession;
let support: HttpSession;
let admin: HttpSession;
let payer: TestUser;
let payee: TestUser;
let payeeId: number;
let cardTransferId: string;
let coinTransferId: string;

beforeAll(async () => {
  server = await startTestServer({ OPERATOR_TOKEN });
  const enrolled = await Promise.all(
    (['viewer', 'support', 'admin'] as const).map(async (role) => enrol(server, await addOperator(server, `money-${role}`, role))),
  );
  operators = { viewer: enrolled[0]!, support: enrolled[1]!, admin: enrolled[2]! };
  const sessions = await Promise.all(enrolled.map((operator) => signInHttp(server, operator)));
  [viewer, support, admin] = sessions as [HttpSession, HttpSession, HttpSession];
  payer = await registerUser(server);
  payee = await registerUser(server);
  payeeId = await accountIdOf(server, payee);
  await setUp(server, payer, '/agent/setup-link');
  const sent = await send(server, payer, { recipientHandle: payee.handle, amount: 20, currency: 'USD' });
  expect(sent.status).toBe(200);
  cardTransferId = sent.body.transfer.id;
  await fund(server, payer, 3_000_000n);
  const coin = await agentTransfer(server, payer, { to: payee.handle, amount: 1, currency: 'USDC' });
  expect(coin.status).toBe(200);
  coinTransferId = coin.body.transferId;
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server?.close();
});

/** The action forms on a page (the Sign out form is on every page and is not one). */
const actionForms = (page: string) =>
  [...page.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]).filter((a) => a !== '/console/sign-out');

const frozenScope = async () =>
  (await server.deps.db.selectFrom('accounts').select('frozen_scope').where('id', '=', payeeId).executeTakeFirstOrThrow()).frozen_scope;
const auditCount = async () =>
  Number(
    (
      await server.deps.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const refundCount = async () =>
  Number(
    (
      await server.deps.db
        .selectFrom('refunds')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('transfer_id', '=', cardTransferId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Posts an action form from `page` with its CSRF token. */
async function act(client: HttpSession, page: string, action: string, fields: Record<string, string>) {
  return client.request('POST', action, { csrf: csrfOf(page), ...fields });
}

describe('the pages', () => {
  it('answer every role, with the account and the transfers found by handle, e-mail and id', async () => {
    for (const client of [viewer, support, admin]) {
      for (const path of ['/console/accounts', '/console/transfers', '/console/disputes', '/console/withdrawals', '/console/webhooks'])
        expect((await client.request('GET', path)).status, path).toBe(200);
      const found = await client.request('GET', `/console/accounts?q=${encodeURIComponent(payee.email)}`);
      expect(found.text).toContain(`href="/console/accounts/${payeeId}"`);
      const account = await client.request('GET', `/console/accounts/${payeeId}`);
      expect(account.status).toBe(200);
      expect(account.text).toContain(payee.handle);
      expect(account.text).toContain('20.00 USD');
      expect(account.text).toContain(`href="/console/transfers/${cardTransferId}"`);
    }
    const byHandle = await viewer.request('GET', `/console/transfers?q=${payee.handle}&rail=fiat`);
    expect(byHandle.text).toContain(cardTransferId);
    expect(byHandle.text).not.toContain(coinTransferId);
    const byEmail = await viewer.request('GET', `/console/transfers?q=${encodeURIComponent(payer.email)}&rail=stablecoin`);
    expect(byEmail.text).toContain(coinTransferId);
    expect(coinTransferId).toMatch(/^sct_/);
    const coinDetail = await viewer.request('GET', `/console/transfers/${coinTransferId}`);
    expect(coinDetail.text).toContain(`stablecoin:${coinTransferId}`);
    const detail = await viewer.request('GET', `/console/transfers/${cardTransferId}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toMatch(/Ledger entries/);
    expect(detail.text).toContain(`fiat:${cardTransferId}`);
    expect(detail.text).toContain('transfer.completed');
  });

  it('answer unknown ids with a 404 page and a malformed filter with a 400', async () => {
    expect((await viewer.request('GET', '/console/accounts/999999')).status).toBe(404);
    expect((await viewer.request('GET', '/console/accounts/not-an-id')).status).toBe(404);
    expect((await viewer.request('GET', '/console/transfers/tr_nosuch')).status).toBe(404);
    const bad = await viewer.request('GET', '/console/transfers?from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('From must be a date');
  });
});

describe('a viewer', () => {
  it('is shown no action form, and a forged POST is refused with 403 and changes nothing', async () => {
    const account = await viewer.request('GET', `/console/accounts/${payeeId}`);
    expect(actionForms(account.text)).toEqual([]);
    expect(actionForms((await viewer.request('GET', `/console/transfers/${cardTransferId}`)).text)).toEqual([]);
    expect(actionForms((await viewer.request('GET', '/console/disputes')).text)).toEqual([]);
    const before = await auditCount();
    const forged = await act(viewer, account.text, `/console/accounts/${payeeId}/freeze`, { scope: 'all', note: 'forged', confirm: 'yes' });
    expect(forged.status).toBe(403);
    expect(await frozenScope()).toBeNull();
    expect(await auditCount()).toBe(before);
  });
});

describe('support', () => {
  it('freezes, sets limits and unfreezes, each shown with its audit entry; refused input changes nothing', async () => {
    let page = (await support.request('GET', `/console/accounts/${payeeId}`)).text;
    expect(actionForms(page)).toEqual([`/console/accounts/${payeeId}/freeze`, `/console/accounts/${payeeId}/limits`]);
    const before = await auditCount();
    const noNote = await act(support, page, `/console/accounts/${payeeId}/freeze`, { scope: 'all', note: ' ', confirm: 'yes' });
    expect(noNote.status).toBe(400);
    expect(noNote.text).toContain('A note is required');
    const unconfirmed = await act(support, page, `/console/accounts/${payeeId}/freeze`, { scope: 'all', note: 'why' });
    expect(unconfirmed.status).toBe(400);
    const badScope = await act(support, page, `/console/accounts/${payeeId}/freeze`, { scope: 'everything', note: 'why', confirm: 'yes' });
    expect(badScope.status).toBe(400);
    expect(await frozenScope()).toBeNull();
    expect(await auditCount()).toBe(before);

    const frozen = await act(support, page, `/console/accounts/${payeeId}/freeze`, {
      scope: 'payouts',
      note: 'fraud review 17',
      confirm: 'yes',
    });
    expect(frozen.status).toBe(303);
    expect(frozen.location).toBe(`/console/accounts/${payeeId}`);
    expect(await frozenScope()).toBe('payouts');
    page = (await support.request('GET', frozen.location!)).text;
    expect(page).toMatch(/<td>money-support<\/td><td>account\.freeze<\/td><td>[0-9]+<\/td><td>fraud review 17<\/td>/);
    expect(page).toContain('payouts only');

    const badLimit = await act(support, page, `/console/accounts/${payeeId}/limits`, {
      currency: 'USD',
      day: 'lots',
      note: 'n',
      confirm: 'yes',
    });
    expect(badLimit.status).toBe(400);
    const limited = await act(support, page, `/console/accounts/${payeeId}/limits`, {
      currency: 'USD',
      day: '125.50',
      month: '',
      note: 'cap',
      confirm: 'yes',
    });
    expect(limited.status).toBe(303);
    page = (await support.request('GET', `/console/accounts/${payeeId}`)).text;
    expect(page).toMatch(/<td>USD<\/td><td>125\.50<\/td><td>default<\/td>/);
    expect(page).toContain('account.limits');

    const unfrozen = await act(support, page, `/console/accounts/${payeeId}/unfreeze`, { note: 'cleared', confirm: 'yes' });
    expect(unfrozen.status).toBe(303);
    expect(await frozenScope()).toBeNull();
    expect(await auditCount()).toBe(before + 3);
  });

  it('is shown no refund form, and a forged refund is refused with 403 and refunds nothing', async () => {
    const page = (await support.request('GET', `/console/transfers/${cardTransferId}`)).text;
    expect(actionForms(page)).toEqual([]);
    const forged = await act(support, page, `/console/transfers/${cardTransferId}/refund`, {
      reason: 'duplicate',
      note: 'n',
      confirm: 'yes',
    });
    expect(forged.status).toBe(403);
    expect(await refundCount()).toBe(0);
  });
});

describe('admin', () => {
  it('refunds a card transfer once even when the form is sent twice, and sees the refund and its audit entry', async () => {
    const page = (await admin.request('GET', `/console/transfers/${cardTransferId}`)).text;
    expect(actionForms(page)).toEqual([`/console/transfers/${cardTransferId}/refund`]);
    const once = /name="once" value="([^"]+)"/.exec(page)![1]!;
    const tooMuch = await act(admin, page, `/console/transfers/${cardTransferId}/refund`, {
      once,
      amount: '500',
      reason: 'duplicate',
      note: 'n',
      confirm: 'yes',
    });
    expect(tooMuch.status).toBe(400);
    expect(await refundCount()).toBe(0);
    const fields = { once, amount: '5.25', reason: 'requested_by_customer', note: 'asked by phone', confirm: 'yes' };
    const refunded = await act(admin, page, `/console/transfers/${cardTransferId}/refund`, fields);
    expect(refunded.status).toBe(303);
    expect(refunded.location).toBe(`/console/transfers/${cardTransferId}`);
    expect((await act(admin, page, `/console/transfers/${cardTransferId}/refund`, fields)).status).toBe(303);
    expect(await refundCount()).toBe(1);
    const after = (await admin.request('GET', refunded.location!)).text;
    expect(after).toContain('5.25 USD');
    expect(after).toMatch(/<td>money-admin<\/td><td>transfer\.refund<\/td><td>[^<]+<\/td><td>asked by phone<\/td>/);
    const disputes = (await admin.request('GET', '/console/disputes')).text;
    expect(disputes).toContain(cardTransferId);
  });
});

describe('blocked deposits', () => {
  it('are listed on the account page; support releases one once, shown in the audit log', async () => {
    const user = await registerUser(server);
    const userId = await accountIdOf(server, user);
    const depositId = `dep_console_${Date.now()}`;
    const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const;
    await recordBlockedDeposit(
      server.deps.db,
      {
        id: depositId,
        accountId: userId,
        token: 'USDC',
        amountMinor: 4_500_000n,
        txHash: hex(Date.now()),
        logIndex: 0,
        blockNumber: 1n,
        blockHash: hex(1),
        from: '0x00000000000000000000000000000000000000aa',
        to: user.depositAddress as `0x${string}`,
        creditedAt: server.deps.clock.now(),
      },
      async () => {},
    );
    const action = `/console/accounts/${userId}/deposits/${depositId}/release`;
    expect(actionForms((await viewer.request('GET', `/console/accounts/${userId}`)).text)).not.toContain(action);
    const page = (await support.request('GET', `/console/accounts/${userId}`)).text;
    expect(page).toContain('4.500000 USDC');
    expect(actionForms(page)).toContain(action);
    const elsewhere = await act(support, page, `/console/accounts/${payeeId}/deposits/${depositId}/release`, { note: 'n', confirm: 'yes' });
    expect(elsewhere.status).toBe(400);
    const released = await act(support, page, action, { note: 'screened by hand', confirm: 'yes' });
    expect(released.status).toBe(303);
    expect(released.location).toBe(`/console/audit?target=${depositId}`);
    expect((await support.request('GET', released.location!)).text).toContain('screened by hand');
    const balance = await server.request('GET', '/stablecoin/balance', { key: user.key });
    expect(JSON.stringify(balance.body)).toContain('4.5');
    const again = await act(support, page, action, { note: 'again', confirm: 'yes' });
    expect(again.status).toBe(400);
    expect(await server.deps.db.selectFrom('audit_log').selectAll().where('target', '=', depositId).execute()).toHaveLength(1);
  });
});

describe('failing webhook endpoints', () => {
  it('are listed with their recent failures and the last error', async () => {
    const endpointId = `we_console_${Date.now()}`;
    const at = server.deps.clock.now();
    await server.deps.db
      .insertInto('webhook_endpoints')
      .values({
        id: endpointId,
        account_id: payeeId,
        url: 'https://hooks.example.com/down',
        status: 'enabled',
        failing_since: at,
        secret_salt: 'salt',
        created_at: at,
        events: null,
      })
      .execute();
    const delivery = await server.deps.db
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpointId, event_seq: 1n, status: 'pending', next_attempt_at: at, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const attempt of [1, 2, 3])
      await server.deps.db
        .insertInto('webhook_attempts')
        .values({
          delivery_id: delivery.id,
          endpoint_id: endpointId,
          attempt,
          attempted_at: at,
          duration_ms: 5,
          succeeded: false,
          status_code: 502,
          error: `bad gateway ${attempt}`,
        })
        .execute();
    const page = await viewer.request('GET', '/console/webhooks');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      new RegExp(`<td>${endpointId}</td>.*<td>https://hooks.example.com/down</td>.*<td>3</td><td>bad gateway 3</td><td>502</td>`, 's'),
    );
  });
});

describe('disputes, debts and payouts', () => {
  it('lists a dispute and the debt it left; admin reverses the payout and writes off the rest, each shown with its audit entry', async () => {
    const user = await registerUser(server);
    const userId = await accountIdOf(server, user);
    await setUp(server, user, '/agent/connect-link');
    const sent = await send(server, payer, { recipientHandle: user.handle, amount: 12, currency: 'USD' });
    expect(sent.status).toBe(200);
    await advanceDays(server, 2); // paid out (and every console session expired)
    const opened = await server.request('POST', '/test-helpers/disputes', { body: { transferId: sent.body.transfer.id } });
    expect(opened.status).toBe(200);
    const payout = await server.deps.db
      .selectFrom('payouts')
      .select('id')
      .where('account_id', '=', userId)
      .where('status', '=', 'paid')
      .executeTakeFirstOrThrow();
    const client = await signInHttp(server, operators.admin);
    let page = (await client.request('GET', '/console/disputes')).text;
    expect(page).toMatch(new RegExp(`Open disputes\\s*</caption>[^]*${sent.body.transfer.id}[^]*Closed disputes`));
    expect(page).toMatch(new RegExp(`<a href="/console/accounts/${userId}">${userId}</a></td><td>12.00 USD</td>`));

    const refused = await act(client, page, `/console/payouts/${payout.id}/reverse`, { amount: '-1', note: 'n', confirm: 'yes' });
    expect(refused.status).toBe(400);
    const once = new RegExp(`action="/console/payouts/${payout.id}/reverse"[^]*?name="once" value="([^"]+)"`).exec(page)![1]!;
    const reversed = await act(client, page, `/console/payouts/${payout.id}/reverse`, {
      once,
      amount: '5',
      note: 'reverse five',
      confirm: 'yes',
    });
    expect(reversed.status).toBe(303);
    expect(reversed.location).toBe(`/console/audit?target=${payout.id}`);
    expect((await client.request('GET', reversed.location!)).text).toContain('reverse five');

    page = (await client.request('GET', '/console/disputes')).text;
    expect(page).toMatch(new RegExp(`<a href="/console/accounts/${userId}">${userId}</a></td><td>7.00 USD</td>`));
    const written = await act(client, page, `/console/accounts/${userId}/write-off`, {
      currency: 'USD',
      note: 'uncollectable',
      confirm: 'yes',
    });
    expect(written.status).toBe(303);
    const account = (await client.request('GET', written.location!)).text;
    expect(account).toMatch(/<td>money-admin<\/td><td>debt\.write_off<\/td><td>[0-9]+<\/td><td>uncollectable<\/td>/);
    expect(account).toMatch(/<td>USD<\/td><td>0\.00 USD<\/td><td>0\.00 USD<\/td><td>0\.00 USD<\/td><td>0\.00 USD<\/td>/);
    const again = await act(client, page, `/console/accounts/${userId}/write-off`, { currency: 'USD', note: 'again', confirm: 'yes' });
    expect(again.status).toBe(400);
    expect(again.text).toContain('owes nothing');
  });
});
