// Broken object-level authorization: one user's resources (fiat and stablecoin transfers,
// withdrawals, deposits, links, quotes, history cursors, Idempotency-Keys, x402 payments, cards and
// bank debits) can never be read, listed, used or even detected by another user. The route list comes
// from /openapi.json and from the router itself: a route that takes an id in its path, or an
// operation without a cross-user probe below, fails the inventory test until it gets one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secret, world } from './security-world.js';
import { sql } from 'kysely';
import type { LocalAccount } from 'viem';
import { registerUser, type TestResponse, type TestServer, type TestUser } from '../../helpers/test-server.js';
import { linkPath, newLink, send, setUp } from '../../helpers/fiat.js';
import { drainDeposits, faucet, mined } from '../../helpers/stablecoin-chain.js';
import { freshAddress, fundHotWallet, settleWithdrawals } from '../../helpers/withdrawals.js';
import { QUOTE_PRICE, fundedPayer, handMadeV1Header, usdcOf } from '../../helpers/nano.js';
import { recordChaos } from './report.js';
import { chaosSettings, randomFor } from './settings.js';
import { hasPathParameter, publishedOperations, routeKey, routerRoutes, type PublishedOperation } from './security-routes.js';

const settings = chaosSettings();
const random = randomFor('security-bola');
const seedNote = `(CHAOS_SEED=${settings.seed})`;
let operations = 0;
const violations: string[] = [];

/** Records a violation instead of throwing, so that one run lists every leak it saw. */
function violation(condition: boolean, message: string): void {
  if (!condition) violations.push(`${message} ${seedNote}`);
}

/** Each test fails on the violations it found itself. */
function expectNoViolationsSince(start: number): void {
  expect(violations.slice(start), `violations ${seedNote}`).toEqual([]);
}

const token = (url: string) => linkPath(url).split('/').pop()!;
const randomChars = (n: number) =>
  Array.from({ length: n }, () => 'ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz0123456789'[Math.floor(random() * 54)]).join('');

let server: TestServer;
/** Bob owns one of every kind of resource; Alice is the intruder, with her own (so her pages are not empty). */
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let aliceAddress: string;
let payer: LocalAccount;
const bobSecrets = new Map<string, string>();
const bobIdempotencyKeys = new Map<string, string>();
const bobCursors: string[] = [];
let bobPaymentHeader = '';

async function ok(what: string, answer: Promise<TestResponse>): Promise<TestResponse> {
  const done = await answer;
  if (done.status >= 300) throw new Error(`${what}: ${done.status} ${done.text}`);
  return done;
}

async function fundedUser(usdc: number): Promise<TestUser> {
  const user = await registerUser(server);
  await setUp(server, user, '/agent/setup-link');
  await mined(server, await faucet(server, { address: user.depositAddress, amount: usdc, currency: 'USDC' }));
  return user;
}

/** Bob's world: one of every kind of resource, with every id, cursor, key and payment kept. */
async function setUpBobsWorld(): Promise<void> {
  server = world.a;
  [alice, bob, carol] = [await fundedUser(1000), await fundedUser(1000), await registerUser(server)];
  await fundHotWallet(server, 10n ** 12n);
  aliceAddress = freshAddress();
  await ok(
    'alice default address',
    server.request('PUT', '/stablecoin/withdrawal-address', { key: alice.key, body: { address: aliceAddress } }),
  );
  await setUp(server, bob, '/agent/bank-debit-link');
  await setUp(server, bob, '/agent/connect-link');
  const deposit = await faucet(server, { address: bob.depositAddress, amount: 25, currency: 'USDC' });
  await mined(server, deposit);
  await drainDeposits(server);
  bobSecrets.set('deposit tx', deposit);

  const keyed = (route: string) => {
    const key = `bob-${route}-${settings.seed}-${randomChars(8)}`;
    bobIdempotencyKeys.set(route, key);
    return { 'idempotency-key': key };
  };
  const instant = await ok(
    'bob instant',
    send(
      server,
      bob,
      { recipientHandle: carol.handle, amount: 12.34, currency: 'USD', paymentMethod: 'instant', note: 'bob private note' },
      keyed('POST /transfers'),
    ),
  );
  const ach = await ok('bob ach', send(server, bob, { recipientHandle: carol.handle, amount: 5, currency: 'USD', paymentMethod: 'ach' }));
  const coin = await ok(
    'bob coin',
    server.request('POST', '/agent/transfer', {
      key: bob.key,
      body: { to: carol.handle, amount: 3.21, currency: 'USDC' },
      headers: keyed('POST /agent/transfer'),
    }),
  );
  const byEmail = await ok(
    'bob coin by e-mail',
    server.request('POST', '/stablecoin/transfer', {
      key: bob.key,
      body: { recipientEmail: carol.email, amount: 1.23, currency: 'USDC' },
      headers: keyed('POST /stablecoin/transfer'),
    }),
  );
  const bobAddress = freshAddress();
  await ok('bob default address', server.request('PUT', '/stablecoin/withdrawal-address', { key: bob.key, body: { address: bobAddress } }));
  const withdrawal = await ok(
    'bob withdrawal',
    server.request('POST', '/stablecoin/withdraw', {
      key: bob.key,
      body: { amount: 2, currency: 'USDC' },
      headers: keyed('POST /stablecoin/withdraw'),
    }),
  );
  await settleWithdrawals(server);
  const buy = await ok(
    'bob buy session',
    server.request('POST', '/stablecoin/buy-session', {
      key: bob.key,
      body: { amount: 4, currency: 'USDC' },
      headers: keyed('POST /stablecoin/buy-session'),
    }),
  );
  const links = await Promise.all(
    (['/agent/setup-link', '/agent/bank-debit-link', '/agent/connect-link'] as const).map((endpoint) => newLink(server, bob, endpoint)),
  );
  await ok('bob quote', server.request('GET', `/agent/transfer/quote?to=${carol.handle}&amount=9.87&currency=USDC`, { key: bob.key }));
  await ok(
    'bob paid lookup',
    server.request('GET', `/nano/lookup?handle=${carol.handle}`, { key: bob.key, headers: { 'x-payment-source': 'balance' } }),
  );
  payer = await fundedPayer(server);
  bobPaymentHeader = await handMadeV1Header(server, payer, QUOTE_PRICE);
  const paid = await ok(
    'x402 quote',
    server.request('GET', '/nano/quote?amount=7&currency=USDC&action=transfer', { headers: { 'x-payment': bobPaymentHeader } }),
  );
  const settlement = JSON.parse(Buffer.from(paid.headers.get('x-payment-response') ?? '', 'base64').toString('utf8'));

  const hook = await ok(
    'bob webhook endpoint',
    server.request('POST', '/webhook-endpoints', { key: bob.key, body: { url: 'http://127.0.0.1:9/bob-private-hooks' } }),
  );
  const bobEvents = await ok('bob events', server.request('GET', '/events', { key: bob.key }));
  bobSecrets.set('webhook endpoint id', hook.body.id);
  bobSecrets.set('webhook url', 'bob-private-hooks');
  bobSecrets.set('webhook secret', hook.body.secret);
  bobSecrets.set('event id', bobEvents.body.events[0].id);
  bobSecrets.set('instant transfer id', instant.body.transfer.id);
  bobSecrets.set('ach transfer id', ach.body.transfer.id);
  bobSecrets.set('note', 'bob private note');
  bobSecrets.set('stablecoin transfer id', coin.body.transferId);
  bobSecrets.set('e-mail transfer id', byEmail.body.transferId);
  bobSecrets.set('withdrawal id', withdrawal.body.withdrawalId);
  bobSecrets.set('withdrawal tx', withdrawal.body.txId);
  bobSecrets.set('withdrawal address', bobAddress);
  bobSecrets.set('deposit address', bob.depositAddress);
  bobSecrets.set('x402 settlement tx', settlement.transaction);
  bobSecrets.set('funding token', token(buy.body.url));
  for (const link of links) bobSecrets.set(`link ${linkPath(link.url).split('/')[2]}`, token(link.url));
  bobSecrets.set('e-mail', bob.email);
  bobSecrets.set('handle', bob.handle);
  const account = await ok('bob account', server.request('GET', '/account', { key: bob.key }));
  bobSecrets.set('wallet id', account.body.stablecoinWalletId);
  for (const path of ['/transfers', '/transactions', '/stablecoin/transfers']) {
    const page = await ok(`bob ${path}`, server.request('GET', `${path}?limit=1`, { key: bob.key }));
    if (page.body.nextCursor) bobCursors.push(page.body.nextCursor);
  }
  expect(bobCursors.length, `bob has a second page of each history ${seedNote}`).toBe(3);
  // Keys and tokens of this world are searched for in the logs by the logs check.
  for (const [who, user] of [
    ['alice', alice],
    ['bob', bob],
    ['carol', carol],
  ] as const)
    secret(`${who}'s key`, user.key);
  for (const [what, value] of bobSecrets) if (/token|link/.test(what)) secret(`bob's ${what}`, value);
  secret("bob's x402 payment header", bobPaymentHeader);
}

/** Everything of Bob's that another user's requests could change: his own answers and his ledger accounts. */
async function bobState(): Promise<string> {
  const answers = [];
  for (const path of [
    '/account',
    '/balance',
    '/stablecoin/balance',
    '/transfers',
    '/transactions',
    '/stablecoin/transfers',
    '/stablecoin/withdrawal-address',
    '/events?limit=100',
    '/webhook-endpoints',
  ]) {
    answers.push((await server.request('GET', path, { key: bob.key })).text);
  }
  const ledger = await sql<{ code: string; balance: string; pd: string; pc: string }>`
    select l.code, l.balance::text, l.pending_debits::text as pd, l.pending_credits::text as pc
    from ledger_accounts l join accounts a on a.id = l.owner_account_id where a.handle = ${bob.handle} order by l.code`.execute(
    server.deps.db,
  );
  const links = await sql<{
    n: string;
  }>`select count(*)::text as n from links l join accounts a on a.id = l.account_id where a.handle = ${bob.handle} and l.used_at is null`.execute(
    server.deps.db,
  );
  return JSON.stringify({ answers, ledger: ledger.rows, openLinks: links.rows });
}

/** Alice's request for each published operation: the inputs a real client would send. */
type Sample = { query?: string; body?: () => unknown; caller?: 'alice' | 'spare' | 'none'; headers?: Record<string, string> };
const samples = (): Record<string, Sample | { skip: string }> => ({
  'GET /health': { caller: 'none' },
  'GET /health/live': { caller: 'none' },
  'GET /health/ready': { caller: 'none' },
  'POST /agent/register': { caller: 'none', body: () => ({ email: alice.email, password: alice.password }) },
  'POST /stablecoin/register': { caller: 'none', body: () => ({ email: alice.email, password: alice.password }) },
  'GET /agents/check': { query: `handle=${carol.handle}` },
  'GET /agents/lookup': { query: `handle=${carol.handle}` },
  'GET /stablecoin/lookup': { query: `handle=${carol.handle}` },
  // Revoking is checked with a spare key of Alice's: it must revoke that key and nothing of Bob's.
  'POST /account/revoke-key': { caller: 'spare' },
  // Alice sets her own password again (nothing changes for her); it must change nothing of Bob's.
  'POST /account/password': { body: () => ({ currentPassword: alice.password, newPassword: alice.password, revokeOtherKeys: false }) },
  // Revokes every key of the caller's account: probed at the end, with keys of a third account.
  'POST /account/revoke-all-keys': {
    skip: 'revokes the caller’s own keys; probed after the loop with a throw-away account, against Bob’s key',
  },
  'GET /account': {},
  // Alice's limits and what she used: nothing of Bob's.
  'GET /account/limits': {},
  'PATCH /account': { body: () => ({ name: 'Alice Intruder' }) },
  'POST /stablecoin/wallet': {},
  'POST /agent/setup-link': {},
  'POST /agent/connect-link': {},
  'POST /agent/bank-debit-link': {},
  'POST /transfers': { body: () => ({ recipientHandle: carol.handle, amount: 1.01, currency: 'USD', paymentMethod: 'instant' }) },
  'GET /transfers': { query: 'limit=5' },
  'GET /balance': {},
  'GET /transactions': { query: 'limit=5' },
  'GET /stablecoin/deposit-address': { query: 'chain=MATIC' },
  'POST /stablecoin/buy-session': { body: () => ({ amount: 1, currency: 'USDC' }) },
  'GET /stablecoin/balance': {},
  'POST /agent/transfer': { body: () => ({ to: carol.handle, amount: 0.5, currency: 'USDC' }) },
  'POST /stablecoin/transfer': { body: () => ({ recipientEmail: carol.email, amount: 0.5, currency: 'USDC' }) },
  'GET /agent/transfer/quote': { query: `to=${carol.handle}&amount=2&currency=USDC` },
  'GET /transfers/quote': { query: `recipientHandle=${carol.handle}&amount=2&currency=USD` },
  'GET /stablecoin/withdraw/quote': { query: 'amount=2&currency=USDC' },
  'PUT /stablecoin/withdrawal-address': { body: () => ({ address: aliceAddress }) },
  'GET /stablecoin/withdrawal-address': {},
  'GET /stablecoin/transfers': { query: 'limit=5' },
  'GET /nano': { caller: 'none' },
  'GET /.well-known/x402': { caller: 'none' },
  'GET /nano/search': { query: 'q=Test', headers: { 'x-payment-source': 'balance' } },
  'GET /nano/lookup': { query: `handle=${carol.handle}`, headers: { 'x-payment-source': 'balance' } },
  'GET /nano/quote': { query: 'amount=3&currency=USDC&action=withdraw', headers: { 'x-payment-source': 'balance' } },
  'POST /stablecoin/withdraw': { body: () => ({ amount: 1, currency: 'USDC' }) },
  'GET /events': { query: 'limit=100' },
  'POST /webhook-endpoints': { body: () => ({ url: 'http://127.0.0.1:9/alice-hooks' }) },
  'GET /webhook-endpoints': {},
  'DELETE /webhook-endpoints/:id': { skip: 'takes an endpoint id: the webhook endpoint check below' },
  'GET /webhook-endpoints/:id/deliveries': { skip: 'takes an endpoint id: the webhook endpoint check below' },
  'POST /test-helpers/clock/advance': { skip: 'sandbox test helper: moves the shared clock, holds no user data' },
  'POST /test-helpers/stablecoin/faucet': { skip: 'sandbox test helper: mints to an address given, holds no user data' },
});

interface PathParameterCheck {
  name: string;
  covers(key: string): boolean;
  run(): Promise<void>;
}

const LINK_PURPOSES = ['card-setup', 'bank-debit-setup', 'payout-setup', 'funding'] as const;
const linkEndpoint = {
  'card-setup': '/agent/setup-link',
  'bank-debit-setup': '/agent/bank-debit-link',
  'payout-setup': '/agent/connect-link',
} as const;

const PATH_PARAMETER_CHECKS: PathParameterCheck[] = [
  ...LINK_PURPOSES.map((purpose) => ({
    name: `link pages /links/${purpose}/:token`,
    covers: (key: string) => key.endsWith(` /links/${purpose}/:token`),
    async run() {
      // The token is the capability, as the processor's hosted page is: whoever holds it completes the
      // owner's setup, never their own, whatever key they send. Without it nothing can be learnt: a
      // token of another kind of link, or of no link, gives the same 404 page.
      const dave = await registerUser(server);
      const url =
        purpose === 'funding'
          ? (
              await ok(
                'dave buy session',
                server.request('POST', '/stablecoin/buy-session', { key: dave.key, body: { amount: 3, currency: 'USDC' } }),
              )
            ).body.url
          : (await newLink(server, dave, linkEndpoint[purpose])).url;
      const path = `/links/${purpose}`;
      const otherKind = bobSecrets.get(purpose === 'funding' ? 'link card-setup' : 'funding token')!;
      for (const method of ['GET', 'HEAD', 'POST'] as const) {
        const unknown = await fetch(`${server.url}${path}/${randomChars(43)}`, { method });
        const crossed = await fetch(`${server.url}${path}/${otherKind}`, { method });
        const [a, b] = [await unknown.text(), await crossed.text()];
        operations += 2;
        violation(
          unknown.status === 404 && crossed.status === 404 && a === b,
          `${method} ${path}: another kind's token answers ${crossed.status}, an unknown one ${unknown.status}`,
        );
      }
      const aliceBefore = await bobStateOf(alice);
      const page = await fetch(server.url + linkPath(url), { headers: { authorization: `Bearer ${alice.key}` } });
      const html = await page.text();
      violation(
        page.status === 200 && !html.includes(alice.handle) && !html.includes(alice.email),
        `${path}: Alice opening Dave's link sees ${page.status} or herself`,
      );
      const done = await fetch(server.url + linkPath(url), {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.key}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'outcome=succeed',
      });
      violation(done.status === 200, `${path}: completing Dave's link with Alice's key answered ${done.status}`);
      operations += 2;
      const owner = await sql<{ card: string | null; bank: string | null; payout: string | null }>`
        select p.card_ref as card, p.bank_debit_ref as bank, p.payout_ref as payout from processor_customers p join accounts a on a.id = p.account_id where a.handle = ${dave.handle}`.execute(
        server.deps.db,
      );
      if (purpose === 'funding') {
        await drainDeposits(server);
        const balance = (await server.request('GET', '/stablecoin/balance', { key: dave.key })).body;
        violation(balance?.USDC === '3.000000', `${path}: Dave's funding link completed by Alice gave Dave ${balance?.USDC}`);
      } else {
        const column = { 'card-setup': 'card', 'bank-debit-setup': 'bank', 'payout-setup': 'payout' } as const;
        violation(owner.rows[0]?.[column[purpose]] != null, `${path}: Dave's link completed by Alice did not set up Dave`);
      }
      violation((await bobStateOf(alice)) === aliceBefore, `${path}: completing Dave's link changed Alice's account`);
    },
  })),
  {
    name: 'webhook endpoints /webhook-endpoints/:id and events after an id',
    covers: (key) => /^(GET|HEAD|DELETE) \/webhook-endpoints\/:id/.test(key),
    async run() {
      // Bob's endpoint id is, to Alice, exactly an id that never existed: the same 404, nothing listed or deleted.
      const bobs = bobSecrets.get('webhook endpoint id')!;
      const none = `we_${randomChars(22)}`;
      for (const [method, suffix] of [
        ['GET', '/deliveries'],
        ['HEAD', '/deliveries'],
        ['DELETE', ''],
      ] as const) {
        const [a, b] = [
          await server.request(method, `/webhook-endpoints/${bobs}${suffix}`, { key: alice.key }),
          await server.request(method, `/webhook-endpoints/${none}${suffix}`, { key: alice.key }),
        ];
        operations += 2;
        violation(
          a.status === 404 && b.status === 404 && a.body?.code === b.body?.code,
          `${method} Bob's endpoint as Alice: ${a.status}, an unknown one ${b.status}`,
        );
      }
      const listed = await server.request('GET', '/webhook-endpoints', { key: bob.key });
      violation(
        listed.body?.endpoints?.some((e: { id: string }) => e.id === bobs),
        "Bob's endpoint is gone after Alice's DELETE",
      );
      // Bob's event id as Alice's cursor: refused exactly as an id that never existed.
      const [after, unknown] = [
        await server.request('GET', `/events?after=${bobSecrets.get('event id')}`, { key: alice.key }),
        await server.request('GET', `/events?after=evt_${randomChars(22)}`, { key: alice.key }),
      ];
      operations += 3;
      violation(
        after.status === 400 && unknown.status === 400 && after.body?.detail === unknown.body?.detail,
        `GET /events after Bob's event: ${after.status}`,
      );
    },
  },
  {
    name: 'operator actions /admin/*/:id with a user key',
    covers: (key) => /^(GET|HEAD|POST|PUT) \/admin\/.*:id/.test(key),
    async run() {
      // A user's key is no operator credential: Alice acting on Bob's transfer, payout or account gets
      // exactly the answer of a path that does not exist, and nothing of Bob's changes.
      const before = await bobStateOf(bob);
      const bobsTransfer = bobSecrets.get('instant transfer id')!;
      const actions: [method: 'GET' | 'HEAD' | 'POST' | 'PUT', path: string][] = [
        ['POST', `/admin/transfers/${bobsTransfer}/refund`],
        ['POST', `/admin/payouts/po_${randomChars(22)}/reverse`],
        ['POST', `/admin/accounts/1/write-off`],
        ['GET', `/admin/accounts/1`],
        ['HEAD', `/admin/accounts/1`],
        ['POST', `/admin/accounts/1/freeze`],
        ['POST', `/admin/accounts/1/unfreeze`],
        ['PUT', `/admin/accounts/1/limits`],
        ['POST', `/admin/deposits/1/release`],
        ['POST', `/admin/operators/op_${randomChars(22)}/disable`],
      ];
      for (const [method, path] of actions) {
        const body =
          method === 'GET' ? undefined : { reason: 'fraudulent', note: 'not an operator', currency: 'USD', scope: 'all', day: '1' };
        const [a, b] = [
          await server.request(method, path, { key: alice.key, body }),
          await server.request(method, `/no-such-path/${randomChars(12)}`, { key: alice.key, body }),
        ];
        operations += 2;
        // HEAD answers carry no body: the status and the content type are the answer.
        const same = method === 'HEAD' ? a.headers.get('content-type') === b.headers.get('content-type') : a.body?.code === b.body?.code;
        violation(a.status === 404 && b.status === 404 && same, `${method} ${path} as Alice: ${a.status} (unknown path: ${b.status})`);
      }
      violation((await bobStateOf(bob)) === before, "Alice's calls to /admin/* changed Bob's account");
    },
  },
  {
    name: 'console pages /console/*/:id with a user key',
    covers: (key) => /^(GET|HEAD|POST) \/console\/.*:(id|depositId|token)/.test(key),
    async run() {
      // The console takes a console session (cookie) only: a user's key opens nothing there. Without a
      // session every page and action sends the browser to the sign-in page (or, while no operator
      // exists, answers as an unknown path), no session cookie is handed out, and nothing of Bob's
      // changes; an enrolment link that is no link is refused.
      const before = await bobStateOf(bob);
      const bobsTransfer = bobSecrets.get('instant transfer id')!;
      const sessionRoutes: [method: 'GET' | 'HEAD' | 'POST', path: string][] = [
        ['GET', `/console/accounts/1`],
        ['HEAD', `/console/accounts/1`],
        ['POST', `/console/accounts/1/freeze`],
        ['POST', `/console/accounts/1/unfreeze`],
        ['POST', `/console/accounts/1/limits`],
        ['POST', `/console/accounts/1/deposits/1/release`],
        ['POST', `/console/accounts/1/write-off`],
        ['POST', `/console/operators/op_${randomChars(22)}/disable`],
        ['POST', `/console/operators/op_${randomChars(22)}/reset-totp`],
        ['GET', `/console/transfers/${bobsTransfer}`],
        ['HEAD', `/console/transfers/${bobsTransfer}`],
        ['POST', `/console/transfers/${bobsTransfer}/refund`],
        ['POST', `/console/payouts/po_${randomChars(22)}/reverse`],
      ];
      const body = { note: 'not an operator', confirm: 'yes', scope: 'all', currency: 'USD', day: '1', csrf: 'x' };
      for (const [method, path] of sessionRoutes) {
        const a = await server.request(method, path, { key: alice.key, body: method === 'POST' ? body : undefined });
        operations += 1;
        const toSignIn = a.status === 303 && a.headers.get('location') === '/console/sign-in';
        const cookie = a.headers.get('set-cookie') ?? '';
        violation((toSignIn || a.status === 404) && !cookie.includes('peerpay_console='), `${method} ${path} as Alice: ${a.status}`);
      }
      for (const method of ['GET', 'HEAD', 'POST'] as const) {
        const path = `/console/enrol/${randomChars(43)}`;
        const a = await server.request(method, path, {
          key: alice.key,
          body: method === 'POST' ? { password: 'a'.repeat(16), code: '123456' } : undefined,
        });
        operations += 1;
        violation([400, 403, 404, 410].includes(a.status), `${method} ${path} as Alice: ${a.status}`);
      }
      violation((await bobStateOf(bob)) === before, "Alice's calls to /console/* changed Bob's account");
    },
  },
  {
    name: 'sandbox card-risk helpers /test-helpers/*/:id',
    covers: (key) => /^POST \/test-helpers\/(disputes|refunds)\/:id\//.test(key),
    async run() {
      // Sandbox-only (404 in live mode) and keyless by the sandbox contract: they act on an id, and an
      // id that is no dispute or refund is 404 and changes nobody's money.
      const before = await bobStateOf(bob);
      for (const [path, body] of [
        [`/test-helpers/disputes/dp_${randomChars(22)}/close`, { outcome: 'lost' }],
        [`/test-helpers/refunds/rf_${randomChars(22)}/fail`, {}],
      ] as const) {
        const answer = await server.request('POST', path, { key: alice.key, body });
        operations += 1;
        violation(answer.status === 404, `POST ${path} (no such id) answered ${answer.status}`);
      }
      violation((await bobStateOf(bob)) === before, "unknown ids to /test-helpers/* changed Bob's account");
    },
  },
  {
    name: 'API documentation files /docs/*',
    covers: (key) => / \/docs\/(static\/)?\*$/.test(key),
    async run() {
      // Static files only: an id of Bob's there is as unknown as any other name.
      const bobs = await fetch(`${server.url}/docs/static/${bobSecrets.get('withdrawal id')}`);
      const none = await fetch(`${server.url}/docs/static/wd_${randomChars(22)}`);
      operations += 2;
      violation(
        bobs.status === none.status && bobs.status === 404,
        `/docs/static/<Bob's id> answers ${bobs.status}, an unknown name ${none.status}`,
      );
    },
  },
];

/** A user's own view of their account (the same reads as Bob's state, for any user). */
async function bobStateOf(user: TestUser): Promise<string> {
  const answers = [];
  for (const path of ['/balance', '/stablecoin/balance', '/transfers'])
    answers.push((await server.request('GET', path, { key: user.key })).text);
  const instruments =
    await sql`select p.card_ref, p.bank_debit_ref, p.payout_ref from processor_customers p join accounts a on a.id = p.account_id where a.handle = ${user.handle}`.execute(
      server.deps.db,
    );
  return JSON.stringify({ answers, instruments: instruments.rows });
}

/** The BOLA checks, on the shared peerpay instance of the including file (world.a). */
export function bolaSuite(): void {
  describe('cross-user access', () => {
    beforeAll(setUpBobsWorld, 180_000);
    afterAll(() => recordChaos('security-bola', { operations, violations: violations.length }));
    describe('cross-user access (BOLA)', () => {
      let published: PublishedOperation[];
      beforeAll(async () => {
        published = (await publishedOperations(server)).operations;
      });

      it('every published operation has a cross-user probe, and every route with a path parameter has its own check', () => {
        const table = samples();
        const unprobed = published.map((op) => routeKey(op.method, op.path)).filter((key) => !(key in table));
        expect(unprobed, `operations without a cross-user probe in security-bola.test.ts ${seedNote}`).toEqual([]);
        const withParameters = new Set([
          ...routerRoutes(server).filter((key) => hasPathParameter(key.split(' ')[1]!)),
          ...published.filter((op) => hasPathParameter(op.path)).map((op) => routeKey(op.method, op.path)),
        ]);
        expect(withParameters.size, `the router lists the link pages ${seedNote}`).toBeGreaterThanOrEqual(12);
        const unchecked = [...withParameters].filter((key) => !PATH_PARAMETER_CHECKS.some((check) => check.covers(key)));
        expect(unchecked, `routes with a path parameter but no cross-user check ${seedNote}`).toEqual([]);
        operations += published.length + withParameters.size;
      });

      it('no operation, whatever id, cursor, Idempotency-Key or payment of Bob’s it is given, shows or changes anything of Bob’s', async () => {
        const start = violations.length;
        const table = samples();
        const before = await bobState();
        const spare = (
          await ok('alice spare key', server.request('POST', '/agent/register', { body: { email: alice.email, password: alice.password } }))
        ).body.apiKey;
        const call = (
          op: PublishedOperation,
          sample: Sample,
          extra: { query?: string; headers?: Record<string, string>; key?: string } = {},
        ) => {
          const query = [sample.query, extra.query].filter(Boolean).join('&');
          const key = extra.key ?? (sample.caller === 'none' ? undefined : sample.caller === 'spare' ? spare : alice.key);
          const body = sample.body?.();
          return server.request(op.method, op.path + (query ? `?${query}` : ''), {
            ...(key ? { key } : {}),
            ...(body === undefined ? {} : { body }),
            headers: { ...sample.headers, ...extra.headers },
          });
        };
        const noLeak = (label: string, answer: TestResponse) => {
          operations++;
          violation(answer.status < 500, `${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
          for (const [what, secret] of bobSecrets) violation(!answer.text.includes(secret), `${label} shows Bob's ${what}`);
        };
        for (const op of published) {
          const label = routeKey(op.method, op.path);
          const sample = table[label];
          if (!sample || 'skip' in sample) continue;
          const parameters: any[] = op.operation.parameters ?? [];
          noLeak(label, await call(op, sample));

          if (parameters.some((p) => p.in === 'query' && p.name === 'cursor')) {
            for (const cursor of bobCursors) {
              // Bob's cursor is a position (time, id); as Alice it must list exactly what a cursor at the
              // same time with an id that never existed lists: Alice's own items, nothing of Bob's.
              const [iso, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
              const fabricated = Buffer.from(JSON.stringify([iso, `${String(id).split('_')[0]}_${randomChars(22)}`])).toString('base64url');
              const [withBobs, withNone] = [
                await call(op, sample, { query: `cursor=${cursor}` }),
                await call(op, sample, { query: `cursor=${fabricated}` }),
              ];
              noLeak(`${label} with Bob's cursor`, withBobs);
              violation(
                withBobs.status === withNone.status && withBobs.body?.code === withNone.body?.code,
                `${label}: Bob's cursor answers ${withBobs.status}, an unknown one ${withNone.status}`,
              );
              const ids = (answer: TestResponse) =>
                JSON.stringify(
                  Object.values(answer.body ?? {})
                    .find(Array.isArray)
                    ?.map((item: any) => item.id) ?? null,
                );
              violation(ids(withBobs) === ids(withNone), `${label}: Bob's cursor lists ${ids(withBobs)}, an unknown one ${ids(withNone)}`);
            }
          }

          if (parameters.some((p) => p.in === 'header' && p.name === 'idempotency-key')) {
            // Bob's key from Alice, with Alice's own (different) request: a new request of Alice's, answered
            // as a fresh key is; a shared key space would answer 422 (reused) and so reveal Bob's request.
            const bobKey = bobIdempotencyKeys.get(label);
            violation(bobKey !== undefined, `${label}: Bob made no request with an Idempotency-Key here; add one to beforeAll`);
            if (bobKey) {
              const withBobs = await call(op, sample, { headers: { 'idempotency-key': bobKey } });
              const withFresh = await call(op, sample, { headers: { 'idempotency-key': `fresh-${randomChars(16)}` } });
              noLeak(`${label} with Bob's Idempotency-Key`, withBobs);
              violation(
                withBobs.headers.get('idempotent-replayed') === null,
                `${label}: Bob's Idempotency-Key replayed an answer to Alice`,
              );
              violation(
                withBobs.status === withFresh.status && withBobs.body?.code === withFresh.body?.code,
                `${label}: Bob's Idempotency-Key answers ${withBobs.status} ${withBobs.body?.code ?? ''}, a fresh one ${withFresh.status}`,
              );
            }
          }

          if (parameters.some((p) => p.in === 'header' && p.name === 'x-payment')) {
            // Bob's settled x402 payment, presented again (by Alice, with and without her key): refused,
            // nothing served, the payer not charged twice.
            const payerBefore = await usdcOf(server, payer.address);
            for (const key of [alice.key, undefined]) {
              const replay = await call(
                op,
                { ...sample, headers: {} },
                { headers: { 'x-payment': bobPaymentHeader }, ...(key ? { key } : {}) },
              );
              noLeak(`${label} replaying Bob's payment`, replay);
              violation(
                replay.status === 402 && replay.body?.code === 'payment_required',
                `${label}: Bob's used x402 payment answered ${replay.status} ${replay.text.slice(0, 160)}`,
              );
            }
            violation(
              (await usdcOf(server, payer.address)) === payerBefore,
              `${label}: replaying Bob's x402 payment moved the payer's USDC`,
            );
          }
        }
        // Bob's own key still works after Alice revoked hers: revocation is per key.
        violation((await server.request('GET', '/account', { key: bob.key })).status === 200, `Alice's revoke-key revoked Bob's key`);
        violation(
          (await server.request('GET', '/account', { key: spare })).status === 401,
          `the spare key still works after it revoked itself`,
        );
        // revoke-all-keys from another account revokes that account's keys only.
        const throwAway = await registerUser(server);
        noLeak('POST /account/revoke-all-keys', await server.request('POST', '/account/revoke-all-keys', { key: throwAway.key }));
        violation(
          (await server.request('GET', '/account', { key: bob.key })).status === 200,
          `another account's revoke-all-keys revoked Bob's key`,
        );
        violation(
          (await server.request('GET', '/account', { key: alice.key })).status === 200,
          `another account's revoke-all-keys revoked Alice's key`,
        );
        violation((await bobState()) === before, 'Alice’s requests changed Bob’s balances, history, account, links or ledger accounts');
        expectNoViolationsSince(start);
      }, 180_000);

      it('another user’s card, bank debit and saved withdrawal address are never used for Alice’s payments', async () => {
        const start = violations.length;
        const dave = await registerUser(server);
        const chargesOf = async (user: TestUser) =>
          (
            await sql<{ n: string }>`
            select count(*)::text as n from sandbox_charges c join sandbox_instruments i on i.ref = c.instrument_ref
            join processor_customers p on p.customer_ref = i.customer_ref join accounts a on a.id = p.account_id where a.handle = ${user.handle}`.execute(
              server.deps.db,
            )
          ).rows[0]!.n;
        const bobCharges = await chargesOf(bob);
        // Dave has no card, no bank debit and no saved address; Bob has all three. Dave's answers must be
        // those of a user alone in the system, and Bob's instruments untouched.
        const instant = await send(server, dave, { recipientHandle: carol.handle, amount: 2, currency: 'USD', paymentMethod: 'instant' });
        const ach = await send(server, dave, { recipientHandle: carol.handle, amount: 2, currency: 'USD', paymentMethod: 'ach' });
        const noAddress = await server.request('POST', '/stablecoin/withdraw', { key: dave.key, body: { amount: 1, currency: 'USDC' } });
        const saved = await server.request('GET', '/stablecoin/withdrawal-address', { key: dave.key });
        operations += 4;
        violation(instant.status >= 400 && instant.status < 500, `Dave's instant transfer without a card answered ${instant.status}`);
        violation(
          ach.status >= 400 && ach.body?.code === 'ach_setup_required',
          `Dave's ACH transfer without a bank debit answered ${ach.status} ${ach.body?.code}`,
        );
        violation(
          noAddress.status >= 400 && noAddress.status < 500 && !noAddress.text.includes(bobSecrets.get('withdrawal address')!),
          `Dave's withdrawal without an address answered ${noAddress.status} ${noAddress.text.slice(0, 160)}`,
        );
        violation(!saved.text.includes(bobSecrets.get('withdrawal address')!), `Dave's saved address shows Bob's`);
        violation((await chargesOf(bob)) === bobCharges, 'Dave’s transfers charged Bob’s card or bank account');
        expectNoViolationsSince(start);
      });
    });

    describe('routes with a path parameter', () => {
      it.each(PATH_PARAMETER_CHECKS.map((check) => [check.name, check] as const))('%s: no cross-user access', async (_name, check) => {
        const start = violations.length;
        await check.run();
        expectNoViolationsSince(start);
      });
    });
  });
}
