// Every event of a journey on both rails reaches the webhook receivers of the accounts concerned,
// verified with the standardwebhooks package (DESIGN §13): card and bank debit transfers (settled and
// returned), payouts (paid and failed), every kind of link, a deposit, a funding link, a withdrawal,
// a stablecoin transfer and an x402 payment from balance. What each account's receiver got is
// exactly what its GET /events lists: every event delivered, none twice in the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueWebhooks } from '../../src/events/webhook-delivery.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { advanceDays, send, setUp, submitLink } from '../helpers/fiat.js';
import { drainDeposits, faucet, mined } from '../helpers/stablecoin-chain.js';
import { freshAddress, fundHotWallet, settleWithdrawals, withdraw } from '../helpers/withdrawals.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let server: TestServer;
const hooks = new Map<TestUser, WebhookReceiver>();

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
  for (const r of hooks.values()) await r.close();
});

async function userWithHooks(): Promise<TestUser> {
  const user = await registerUser(server);
  const r = await startWebhookReceiver();
  const created = await server.request('POST', '/webhook-endpoints', { key: user.key, body: { url: r.url } });
  expect(created.status).toBe(201);
  r.setSecret(created.body.secret);
  hooks.set(user, r);
  return user;
}

async function eventsOf(user: TestUser): Promise<Array<{ id: string; type: string; data: any }>> {
  const all = [];
  let after: string | null = null;
  for (let page = 0; page < 20; page++) {
    const response = await server.request('GET', `/events?limit=5${after ? `&after=${after}` : ''}`, { key: user.key });
    expect(response.status).toBe(200);
    all.push(...response.body.events);
    if (response.body.events.length === 0) break;
    after = response.body.nextCursor;
  }
  return all;
}

const sorted = (types: string[]) => [...types].sort();

describe('a journey on both rails', () => {
  it('delivers every event to the webhook endpoints of the accounts concerned, signed', async () => {
    const payer = await userWithHooks();
    const returner = await userWithHooks();
    const payee = await userWithHooks();
    const declined = await userWithHooks();
    await setUp(server, payer, '/agent/setup-link');
    await setUp(server, payer, '/agent/bank-debit-link');
    await setUp(server, returner, '/agent/bank-debit-link', 'return');
    await setUp(server, payee, '/agent/connect-link');
    await setUp(server, declined, '/agent/connect-link', 'decline');

    // Fiat: card, bank debit settled, bank debit returned; then the clock runs settlement and payouts.
    const card = await send(server, payer, { recipientHandle: payee.handle, amount: 10, currency: 'USD' });
    const ach = await send(server, payer, { recipientHandle: payee.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' });
    const returned = await send(server, returner, { recipientHandle: payee.handle, amount: 5, currency: 'USD', paymentMethod: 'ach' });
    const toDeclined = await send(server, payer, { recipientHandle: declined.handle, amount: 3, currency: 'USD' });
    for (const r of [card, ach, returned, toDeclined]) expect(r.status).toBe(200);
    await advanceDays(server, 7);

    // Stablecoin: a deposit, a funding link, a transfer, a withdrawal, an x402 payment from balance.
    await mined(server, await faucet(server, { address: payer.depositAddress, amount: 30, currency: 'USDC' }));
    const buy = await server.request('POST', '/stablecoin/buy-session', { key: payee.key, body: { amount: 4, currency: 'USDC' } });
    expect(buy.status).toBe(200);
    expect((await submitLink(server, buy.body.url, 'succeed')).status).toBe(200);
    await drainDeposits(server);
    const coin = await server.request('POST', '/agent/transfer', {
      key: payer.key,
      body: { to: payee.handle, amount: 2, currency: 'USDC' },
    });
    expect(coin.status).toBe(200);
    await fundHotWallet(server, 10n ** 9n);
    const withdrawal = await withdraw(server, payer, { amount: 5, currency: 'USDC', address: freshAddress() });
    expect(withdrawal.status).toBe(200);
    await settleWithdrawals(server);
    const paid = await server.request('GET', `/nano/lookup?handle=${payee.handle}`, {
      key: payer.key,
      headers: { 'x-payment-source': 'balance' },
    });
    expect(paid.status).toBe(200);

    while ((await deliverDueWebhooks(server.deps)) > 0);

    const payerEvents = await eventsOf(payer);
    expect(sorted(payerEvents.map((e) => e.type))).toEqual(
      sorted([
        'link.completed',
        'link.completed',
        'transfer.sent',
        'transfer.completed',
        'transfer.sent',
        'transfer.completed',
        'transfer.sent',
        'transfer.completed',
        'deposit.credited',
        'transfer.sent',
        'withdrawal.completed',
        'x402.payment.settled',
      ]),
    );
    const returnerEvents = await eventsOf(returner);
    expect(sorted(returnerEvents.map((e) => e.type))).toEqual(sorted(['link.completed', 'transfer.sent', 'transfer.failed']));
    expect(returnerEvents.find((e) => e.type === 'transfer.failed')!.data).toMatchObject({
      id: returned.body.transfer.id,
      status: 'failed',
      failureCode: 'bank_debit_returned',
    });

    const payeeEvents = await eventsOf(payee);
    const payeeTypes = payeeEvents.map((e) => e.type);
    expect(payeeTypes.filter((t) => t === 'transfer.received')).toHaveLength(4);
    expect(payeeTypes.filter((t) => t === 'transfer.completed')).toHaveLength(2);
    expect(payeeTypes.filter((t) => t === 'transfer.failed')).toHaveLength(1);
    expect(payeeTypes.filter((t) => t === 'link.completed')).toHaveLength(2);
    expect(payeeTypes).toContain('payout.paid');
    expect(payeeTypes).toContain('deposit.credited');
    const achReceived = payeeEvents.find((e) => e.type === 'transfer.received' && e.data.id === ach.body.transfer.id)!;
    expect(achReceived.data).toMatchObject({
      direction: 'received',
      amount: '20.00',
      paymentMethod: 'ach',
      counterpartyHandle: payer.handle,
    });
    expect(payeeEvents.find((e) => e.type === 'link.completed' && e.data.kind === 'funding')!.data).toMatchObject({
      amount: 4,
      currency: 'USDC',
    });

    const declinedTypes = (await eventsOf(declined)).map((e) => e.type);
    expect(sorted(declinedTypes)).toEqual(sorted(['link.completed', 'transfer.received', 'transfer.completed', 'payout.failed']));

    // Every account's receiver got exactly its events, each verified by the standardwebhooks package.
    for (const [user, r] of hooks) {
      const events = await eventsOf(user);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(r.refused).toEqual([]);
      expect(sorted(r.received.map((w) => w.id))).toEqual(sorted(events.map((e) => e.id)));
      for (const w of r.received) {
        const event = events.find((e) => e.id === w.id)!;
        expect(w.payload.type).toBe(event.type);
        expect(w.payload.data).toMatchObject({ id: event.id, type: event.type, data: event.data });
      }
    }
  });
});
