// GET /transfers, GET /transactions and GET /balance: newest first, paged with limit and cursor,
// and only ever the caller's own records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { send, setUp } from '../helpers/fiat.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const aliceSent: string[] = [];
const bobSent: string[] = [];
let carolSent: string;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol] = [await registerUser(server), await registerUser(server), await registerUser(server)];
  for (const user of [alice, bob, carol]) await setUp(server, user, '/agent/setup-link');
  for (let i = 1; i <= 5; i++) {
    const r = await send(server, alice, { recipientHandle: bob.handle, amount: i, currency: 'USD', note: `alice→bob ${i}` });
    aliceSent.push(r.body.transfer.id);
  }
  for (let i = 1; i <= 2; i++) {
    const r = await send(server, bob, { recipientHandle: alice.handle, amount: 100 * i, currency: 'JPY' });
    bobSent.push(r.body.transfer.id);
  }
  carolSent = (await send(server, carol, { recipientHandle: bob.handle, amount: 9.99, currency: 'EUR' })).body.transfer.id;
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function allPages(user: TestUser, path: '/transfers' | '/transactions', limit: number) {
  const wrapper = path === '/transfers' ? 'transfers' : 'transactions';
  const items: any[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await server.request('GET', path + query, { key: user.key });
    expect(response.status).toBe(200);
    items.push(...response.body[wrapper]);
    sizes.push(response.body[wrapper].length);
    cursor = response.body.nextCursor;
    if (cursor === null) return { items, sizes };
  }
  throw new Error('paging did not end');
}

function expectNewestFirst(items: { createdAt: string }[]) {
  for (let i = 1; i < items.length; i++)
    expect(Date.parse(items[i - 1]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(items[i]!.createdAt));
}

describe('GET /transfers', () => {
  it('lists sent and received transfers, newest first, with a default page of 20', async () => {
    const response = await server.request('GET', '/transfers', { key: alice.key });
    expect(response.status).toBe(200);
    expect(response.body.nextCursor).toBeNull();
    const items = response.body.transfers;
    expect(items.map((t: { id: string }) => t.id)).toEqual([...bobSent].reverse().concat([...aliceSent].reverse()));
    expectNewestFirst(items);
  });

  it('shows the sender its fee and the recipient only what it received', async () => {
    const sent = (await server.request('GET', '/transfers', { key: alice.key })).body.transfers.find(
      (t: { id: string }) => t.id === aliceSent[2],
    );
    expect(sent).toMatchObject({
      direction: 'sent',
      amount: '3.00',
      fee: '0.07',
      totalDeducted: '3.07',
      currency: 'USD',
      status: 'completed',
      paymentMethod: 'instant',
      counterpartyHandle: bob.handle,
      senderHandle: alice.handle,
      recipientHandle: bob.handle,
      note: 'alice→bob 3',
      failureCode: null,
    });
    expect(sent.completedAt).not.toBeNull();
    const received = (await server.request('GET', '/transfers', { key: bob.key })).body.transfers.find(
      (t: { id: string }) => t.id === aliceSent[2],
    );
    expect(received).toMatchObject({ direction: 'received', amount: '3.00', counterpartyHandle: alice.handle, note: 'alice→bob 3' });
    expect(received).not.toHaveProperty('fee');
    expect(received).not.toHaveProperty('totalDeducted');
    expect(received).not.toHaveProperty('failureCode');
  });

  it('pages with limit and cursor: every transfer once, in order', async () => {
    const { items, sizes } = await allPages(alice, '/transfers', 3);
    expect(sizes).toEqual([3, 3, 1]);
    expect(items.map((t) => t.id)).toEqual([...bobSent].reverse().concat([...aliceSent].reverse()));
    const one = await allPages(alice, '/transfers', 1);
    expect(one.sizes).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(one.items.map((t) => t.id)).toEqual(items.map((t) => t.id));
    const exact = await allPages(alice, '/transfers', 7);
    expect(exact.sizes).toEqual([7]);
  });

  it('never shows another user’s transfers', async () => {
    const carolsView = (await server.request('GET', '/transfers', { key: carol.key })).body.transfers;
    expect(carolsView.map((t: { id: string }) => t.id)).toEqual([carolSent]);
    const alicesView = (await allPages(alice, '/transfers', 100)).items.map((t) => t.id);
    expect(alicesView).not.toContain(carolSent);
    const bobsView = (await allPages(bob, '/transfers', 100)).items.map((t) => t.id);
    expect(new Set(bobsView)).toEqual(new Set([...aliceSent, ...bobSent, carolSent]));
    // A cursor is a position, not a permission: Alice's cursor in Carol's hands still shows Carol's only.
    const alicePage = await server.request('GET', '/transfers?limit=1', { key: alice.key });
    const viaCursor = await server.request('GET', `/transfers?cursor=${encodeURIComponent(alicePage.body.nextCursor)}`, { key: carol.key });
    expect(viaCursor.status).toBe(200);
    for (const t of viaCursor.body.transfers) expect([t.senderHandle, t.recipientHandle]).toContain(carol.handle);
  });

  it('needs a key', async () => {
    expectProblem(await server.request('GET', '/transfers'), 401, 'unauthorized');
  });
});

describe('paging parameters', () => {
  it.each(['0', '101', '-1', 'abc', '1.5', '01', ''])('refuses limit=%s with 400', async (limit) => {
    expectProblem(await server.request('GET', `/transfers?limit=${limit}`, { key: alice.key }), 400, 'invalid_request');
    expectProblem(await server.request('GET', `/transactions?limit=${limit}`, { key: alice.key }), 400, 'invalid_request');
  });

  it('accepts limit=100', async () => {
    expect((await server.request('GET', '/transfers?limit=100', { key: alice.key })).status).toBe(200);
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['base64 of a non-array', Buffer.from('{"a":1}').toString('base64url')],
    ['a bad date', Buffer.from('["yesterday","tr_x"]').toString('base64url')],
    ['an empty id', Buffer.from('["2026-01-01T00:00:00.000Z",""]').toString('base64url')],
  ])('refuses a cursor that is %s', async (_what, cursor) => {
    expectProblem(await server.request('GET', `/transfers?cursor=${cursor}`, { key: alice.key }), 400, 'invalid_request');
    expectProblem(await server.request('GET', `/transactions?cursor=${cursor}`, { key: alice.key }), 400, 'invalid_request');
  });

  it('refuses unknown and repeated query parameters', async () => {
    expectProblem(await server.request('GET', '/transfers?page=2', { key: alice.key }), 400, 'invalid_request');
    expectProblem(await server.request('GET', '/transfers?limit=2&limit=3', { key: alice.key }), 400, 'invalid_request');
  });
});

describe('GET /balance', () => {
  it('lists every supported currency, zero included, as exact decimal strings', async () => {
    const response = await server.request('GET', '/balance', { key: bob.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      balances: [
        { currency: 'USD', available: '15.00', pending: '0.00', held: '0.00', owed: '0.00' },
        { currency: 'EUR', available: '9.99', pending: '0.00', held: '0.00', owed: '0.00' },
        { currency: 'GBP', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
        { currency: 'JPY', available: '0', pending: '0', held: '0', owed: '0' },
      ],
    });
    const fresh = await registerUser(server);
    expect((await server.request('GET', '/balance', { key: fresh.key })).body.balances).toEqual([
      { currency: 'USD', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
      { currency: 'EUR', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
      { currency: 'GBP', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
      { currency: 'JPY', available: '0', pending: '0', held: '0', owed: '0' },
    ]);
  });

  it('needs a key', async () => {
    expectProblem(await server.request('GET', '/balance'), 401, 'unauthorized');
  });
});

describe('GET /transactions', () => {
  it('has a debit and a fee for each transfer sent and a credit for each received, newest first', async () => {
    const { items } = await allPages(alice, '/transactions', 100);
    expectNewestFirst(items);
    const debits = items.filter((e) => e.type === 'debit');
    const fees = items.filter((e) => e.type === 'fee');
    const credits = items.filter((e) => e.type === 'credit');
    expect(debits.map((e) => e.transferId).sort()).toEqual([...aliceSent].sort());
    expect(fees.map((e) => e.transferId).sort()).toEqual([...aliceSent].sort());
    expect(credits.map((e) => e.transferId).sort()).toEqual([...bobSent].sort());
    expect(items).toHaveLength(12);
    const debit = debits.find((e) => e.transferId === aliceSent[0]);
    expect(debit).toMatchObject({
      id: `${aliceSent[0]}:debit`,
      amount: '1.00',
      currency: 'USD',
      status: 'completed',
      paymentMethod: 'instant',
      counterpartyHandle: bob.handle,
      payoutId: null,
    });
    expect(fees.find((e) => e.transferId === aliceSent[0])).toMatchObject({
      amount: '0.02',
      status: 'completed',
      counterpartyHandle: null,
    });
    expect(credits.find((e) => e.transferId === bobSent[1])).toMatchObject({
      amount: '200',
      currency: 'JPY',
      counterpartyHandle: bob.handle,
    });
  });

  it('pages through every entry exactly once', async () => {
    const all = (await allPages(alice, '/transactions', 100)).items.map((e) => e.id);
    for (const limit of [1, 2, 5]) {
      const { items } = await allPages(alice, '/transactions', limit);
      expect(items.map((e) => e.id)).toEqual(all);
    }
    expect(new Set(all).size).toBe(all.length);
  });

  it('shows a user only its own entries', async () => {
    const { items } = await allPages(carol, '/transactions', 100);
    expect(items.map((e) => e.id).sort()).toEqual([`${carolSent}:debit`, `${carolSent}:fee`].sort());
    const bobs = (await allPages(bob, '/transactions', 100)).items;
    expect(bobs.filter((e) => e.type === 'credit')).toHaveLength(6);
    expect(bobs.filter((e) => e.type === 'debit')).toHaveLength(2);
    expect(bobs.some((e) => e.transferId === carolSent && e.type === 'fee')).toBe(false);
  });
});
