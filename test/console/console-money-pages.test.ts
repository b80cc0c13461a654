// The console's account and money pages over HTTP, as a browser without JavaScript uses them
// (DESIGN §17, §18): every page answers for every role; a viewer is shown no action form and a
// forged POST is refused with 403 and changes nothing; support freezes, sets limits and unfreezes
// (each leading to the account page that lists the audit entry written), and is refused a refund;
// admin refunds a card transfer once even when the form is sent twice; refused input is answered
// 400 with its reason and changes nothing; unknown ids are 404 pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { send, setUp } from '../helpers/fiat.js';
import { accountIdOf, agentTransfer, fund } from '../helpers/stablecoin.js';
import { addOperator, csrfOf, enrol, OPERATOR_TOKEN, signInHttp, type HttpSession } from './support/operators.js';

let server: TestServer;
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
  const sessions = await Promise.all(
    (['viewer', 'support', 'admin'] as const).map(async (role) =>
      signInHttp(server, await enrol(server, await addOperator(server, `money-${role}`, role))),
    ),
  );
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
