// Holds on card money (DESIGN §16): with FIAT_HOLD_HOURS set, money received by card is `held`,
// not paid out, and released to `available` (event funds.released) once the hold ends; bank-debit
// money is never held; FIAT_HOLD_HOURS=0 (the sandbox default) credits available at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { loadConfig } from '../../src/config.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, send, setUp } from '../helpers/fiat.js';

let server: TestServer;
let payer: TestUser;

beforeAll(async () => {
  server = await startTestServer({ FIAT_HOLD_HOURS: '36' });
  payer = await registerUser(server);
  await setUp(server, payer, '/agent/setup-link');
  await setUp(server, payer, '/agent/bank-debit-link');
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function usd(user: TestUser) {
  const response = await server.request('GET', '/balance', { key: user.key });
  expect(response.status).toBe(200);
  return response.body.balances.find((b: { currency: string }) => b.currency === 'USD');
}

async function eventTypes(user: TestUser): Promise<string[]> {
  const response = await server.request('GET', '/events', { key: user.key });
  return response.body.events.map((e: { type: string }) => e.type);
}

describe('holds on card money', () => {
  it('GET /balance lists held and owed for every currency', async () => {
    const user = await registerUser(server);
    const response = await server.request('GET', '/balance', { key: user.key });
    expect(response.body.balances).toEqual([
      { currency: 'USD', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
      { currency: 'EUR', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
      { currency: 'GBP', available: '0.00', pending: '0.00', held: '0.00', owed: '0.00' },
      { currency: 'JPY', available: '0', pending: '0', held: '0', owed: '0' },
    ]);
  });

  it('card money is held, not paid out, then released with funds.released and paid out', async () => {
    const user = await registerUser(server);
    await setUp(server, user, '/agent/connect-link');
    const sent = await send(server, payer, { recipientHandle: user.handle, amount: 25, currency: 'USD' });
    expect(sent.status).toBe(200);
    expect(await usd(user)).toEqual({ currency: 'USD', available: '0.00', pending: '0.00', held: '25.00', owed: '0.00' });
    await advanceDays(server, 1); // 24 h of 36: still held, and nothing paid out
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '25.00' });
    const early = await server.request('GET', '/transactions?limit=100', { key: user.key });
    expect(early.body.transactions.filter((e: { type: string }) => e.type === 'payout')).toEqual([]);
    await advanceDays(server, 1); // released, then paid out in the same round
    expect(await usd(user)).toMatchObject({ available: '0.00', held: '0.00' });
    const events = await server.request('GET', '/events', { key: user.key });
    const released = events.body.events.find((e: { type: string }) => e.type === 'funds.released');
    expect(released.data).toMatchObject({ transferId: sent.body.transfer.id, currency: 'USD', amount: '25.00' });
    expect(await eventTypes(user)).toContain('payout.paid');
  });

  it('bank-debit money is not held', async () => {
    const user = await registerUser(server);
    await send(server, payer, { recipientHandle: user.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' });
    await advanceDays(server, 6);
    expect(await usd(user)).toMatchObject({ available: '20.00', held: '0.00' });
    expect(await eventTypes(user)).not.toContain('funds.released');
  });
});

describe('FIAT_HOLD_HOURS', () => {
  it('is 0 in sandbox mode by default and takes decimal hours', () => {
    expect(loadConfig({ PEERPAY_MODE: 'sandbox' }).fiatHoldMs).toBe(0);
    expect(loadConfig({ FIAT_HOLD_HOURS: '0.005' }).fiatHoldMs).toBe(18_000);
    expect(() => loadConfig({ FIAT_HOLD_HOURS: '-1' })).toThrow(/FIAT_HOLD_HOURS/);
    expect(() => loadConfig({ FIAT_HOLD_HOURS: 'soon' })).toThrow(/FIAT_HOLD_HOURS/);
  });
});
