// GET /stablecoin/transfers: newest first, paged with limit and cursor, and only ever the caller's
// own transfers; a recipient never sees the sender's fee.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { agentTransfer, emailTransfer, fund } from '../helpers/stablecoin.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
const aliceSent: string[] = [];
const bobSent: string[] = [];
let carolSent: string;

async function send(from: TestUser, to: TestUser, amount: number, currency: 'USDC' | 'EURC'): Promise<string> {
  const response = await agentTransfer(server, from, { to: to.handle, amount, currency });
  if (response.status !== 200) throw new Error(`transfer: ${response.status} ${response.text}`);
  return response.body.transferId;
}

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, carol] = [await registerUser(server), await registerUser(server), await registerUser(server)];
  await fund(server, alice, 100_000_000n);
  await fund(server, bob, 100_000_000n, 'EURC');
  await fund(server, carol, 100_000_000n);
  for (let i = 1; i <= 5; i++) aliceSent.push(await send(alice, bob, i, 'USDC'));
  for (let i = 1; i <= 2; i++) bobSent.push(await send(bob, alice, 10 * i, 'EURC'));
  carolSent = (await emailTransfer(server, carol, { recipientEmail: bob.email, amount: 9.99, currency: 'USDC' })).body.transferId;
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function allPages(user: TestUser, limit: number) {
  const items: any[] = [];
  const sizes: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await server.request('GET', `/stablecoin/transfers${query}`, { key: user.key });
    expect(response.status).toBe(200);
    items.push(...response.body.transfers);
    sizes.push(response.body.transfers.length);
    cursor = response.body.nextCursor;
    if (cursor === null) return { items, sizes };
  }
  throw new Error('paging did not end');
}

/** Newest first; items made in the same millisecond are ordered by id, byte-wise, descending. */
function expectNewestFirst(items: { createdAt: string; id: string }[]) {
  for (let i = 1; i < items.length; i++) {
    const [prev, next] = [items[i - 1]!, items[i]!];
    const [a, b] = [Date.parse(prev.createdAt), Date.parse(next.createdAt)];
    expect(a > b || (a === b && Buffer.compare(Buffer.from(prev.id), Buffer.from(next.id)) > 0), `${prev.id} before ${next.id}`).toBe(true);
  }
}

describe('GET /stablecoin/transfers', () => {
  it('lists the caller’s sent and received transfers, newest first, in one default page', async () => {
    const response = await server.request('GET', '/stablecoin/transfers', { key: alice.key });
    expect(response.status).toBe(200);
    expect(response.body.nextCursor).toBeNull();
    const items = response.body.transfers;
    expect(items).toHaveLength(7);
    expect(new Set(items.map((t: { id: string }) => t.id))).toEqual(new Set([...aliceSent, ...bobSent]));
    expectNewestFirst(items);
  });

  it('shows the sender amount, fee and what the recipient received', async () => {
    const items = (await server.request('GET', '/stablecoin/transfers', { key: alice.key })).body.transfers;
    expect(items.find((t: { id: string }) => t.id === aliceSent[2])).toEqual({
      id: aliceSent[2],
      type: 'transfer',
      direction: 'sent',
      amount: 3,
      fee: 0.0447,
      recipientAmount: 2.9553,
      currency: 'USDC',
      status: 'complete',
      counterpartyHandle: bob.handle,
      createdAt: expect.any(String),
    });
  });

  it('shows the recipient only what reached it, never the sender’s fee', async () => {
    const items = (await allPages(bob, 100)).items;
    const received = items.find((t) => t.id === aliceSent[2]);
    expect(received).toEqual({
      id: aliceSent[2],
      type: 'transfer',
      direction: 'received',
      amount: 2.9553,
      currency: 'USDC',
      status: 'complete',
      counterpartyHandle: alice.handle,
      createdAt: expect.any(String),
    });
    expect(items.find((t) => t.id === carolSent)).toMatchObject({
      direction: 'received',
      amount: 9.841149,
      counterpartyHandle: carol.handle,
    });
    expect(items.find((t) => t.id === bobSent[1])).toMatchObject({
      direction: 'sent',
      amount: 20,
      fee: 0.298,
      recipientAmount: 19.702,
      currency: 'EURC',
      counterpartyHandle: alice.handle,
    });
  });

  it('pages with limit and cursor: every transfer once, in the same order as one page', async () => {
    const whole = (await allPages(alice, 100)).items.map((t) => t.id);
    const three = await allPages(alice, 3);
    expect(three.sizes).toEqual([3, 3, 1]);
    expect(three.items.map((t) => t.id)).toEqual(whole);
    const one = await allPages(alice, 1);
    expect(one.sizes).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(one.items.map((t) => t.id)).toEqual(whole);
    expect((await allPages(alice, 7)).sizes).toEqual([7]);
    const bobs = await allPages(bob, 2);
    expect(bobs.sizes).toEqual([2, 2, 2, 2]);
    expect(new Set(bobs.items.map((t) => t.id)).size).toBe(8);
  });

  it('never shows another user’s transfers', async () => {
    const carols = (await allPages(carol, 100)).items.map((t) => t.id);
    expect(carols).toEqual([carolSent]);
    expect((await allPages(alice, 100)).items.map((t) => t.id)).not.toContain(carolSent);
    // A cursor is a position, not a permission: Alice's cursor in Carol's hands shows Carol's only.
    const alicePage = await server.request('GET', '/stablecoin/transfers?limit=1', { key: alice.key });
    const viaCursor = await server.request('GET', `/stablecoin/transfers?cursor=${encodeURIComponent(alicePage.body.nextCursor)}`, {
      key: carol.key,
    });
    expect(viaCursor.status).toBe(200);
    for (const t of viaCursor.body.transfers) expect(t.id).toBe(carolSent);
    const fresh = await registerUser(server);
    expect((await server.request('GET', '/stablecoin/transfers', { key: fresh.key })).body).toEqual({ transfers: [], nextCursor: null });
  });

  it('needs a key', async () => {
    expectProblem(await server.request('GET', '/stablecoin/transfers'), 401, 'unauthorized');
  });
});

describe('paging parameters', () => {
  it.each(['0', '101', '-1', 'abc', '1.5', '01', ''])('refuses limit=%s with 400', async (limit) => {
    expectProblem(await server.request('GET', `/stablecoin/transfers?limit=${limit}`, { key: alice.key }), 400, 'invalid_request');
  });

  it('accepts limit=100', async () => {
    expect((await server.request('GET', '/stablecoin/transfers?limit=100', { key: alice.key })).status).toBe(200);
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['base64 of a non-array', Buffer.from('{"a":1}').toString('base64url')],
    ['a bad date', Buffer.from('["yesterday","sct_x"]').toString('base64url')],
    ['an empty id', Buffer.from('["2026-01-01T00:00:00.000Z",""]').toString('base64url')],
  ])('refuses a cursor that is %s', async (_what, cursor) => {
    expectProblem(await server.request('GET', `/stablecoin/transfers?cursor=${cursor}`, { key: alice.key }), 400, 'invalid_request');
  });

  it('refuses unknown and repeated query parameters', async () => {
    expectProblem(await server.request('GET', '/stablecoin/transfers?page=2', { key: alice.key }), 400, 'invalid_request');
    expectProblem(await server.request('GET', '/stablecoin/transfers?limit=2&limit=3', { key: alice.key }), 400, 'invalid_request');
  });
});
