// Live mode, fiat by card, end to end: Stripe (the stand-in) holds the card, peerpay charges it
// off-session with its own Idempotency-Key, the webhook and the request record each answer once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, type TestUser } from '../helpers/test-server.js';
import { balances, send } from '../helpers/fiat.js';
import {
  completeSetup,
  lastPathSegment,
  liveModeAvailable,
  LIVE_MODE_NEEDS,
  startLiveWorld,
  type LiveWorld,
} from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';

const LIVE = runsIf(liveModeAvailable(), LIVE_MODE_NEEDS);

describe.runIf(LIVE)('live mode: card transfers through Stripe', () => {
  let world: LiveWorld;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld();
    alice = await registerUser(world.server);
    bob = await registerUser(world.server);
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    await world.close();
  });

  it('answers /health as live and has no test helpers', async () => {
    const health = await world.server.request('GET', '/health');
    expect(health.body).toMatchObject({ status: 'ok', mode: 'live', database: 'postgres' });
    expect(health.body.chain).toBeUndefined();
    expect((await world.server.request('POST', '/test-helpers/clock/advance', { body: { days: 1 } })).status).toBe(404);
    expect((await world.server.request('POST', '/test-helpers/stablecoin/faucet', { body: {} })).status).toBe(404);
  });

  it('a card link is a Stripe Checkout Session in setup mode for the user’s customer', async () => {
    const link = await world.server.request('POST', '/agent/setup-link', { key: alice.key });
    expect(link.status).toBe(200);
    expect(link.body.url.startsWith(world.stripe.apiBase)).toBe(true);
    const session = world.stripe.checkoutSessions().find((s) => s.id === lastPathSegment(link.body.url))!;
    expect(session).toMatchObject({ mode: 'setup', status: 'open', payment_method_types: ['card'] });
    expect(session.success_url).toMatch(/^https:\/\/pay\.example\.test\/links\/card-setup\/[0-9A-Za-z]{43}\/return$/);
    const customer = world.stripe.customers().find((c) => c.id === session.customer)!;
    expect(customer.email).toBe(alice.email);
    // Before the user finishes the page, no card: 402 card_setup_required.
    expectProblem(
      await send(world.server, alice, { recipientHandle: bob.handle, amount: 10, currency: 'USD' }),
      402,
      'card_setup_required',
    );
  });

  it('once the Checkout Session completes, an instant transfer charges amount + fee once and credits the recipient', async () => {
    await completeSetup(world, alice, '/agent/setup-link', 'pm_card_visa');
    const sent = await send(
      world.server,
      alice,
      { recipientHandle: bob.handle, amount: 10, currency: 'USD' },
      { 'idempotency-key': 'card-1' },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.transfer).toMatchObject({ amount: '10.00', fee: '0.25', totalDeducted: '10.25', status: 'completed' });
    const intents = world.stripe.paymentIntents().filter((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ amount: 1025, currency: 'usd', status: 'succeeded', customer: expect.stringMatching(/^cus_/) });
    // Confirmed off-session, under the transfer's own id as Idempotency-Key.
    const asked = world.stripe
      .requests()
      .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.idempotencyKey === sent.body.transfer.id);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.params).toMatchObject({
      confirm: 'true',
      off_session: 'true',
      metadata: { peerpay_transfer_id: sent.body.transfer.id },
    });
    // The same request again: replayed, nothing charged again.
    const again = await send(
      world.server,
      alice,
      { recipientHandle: bob.handle, amount: 10, currency: 'USD' },
      { 'idempotency-key': 'card-1' },
    );
    expect(again.body.transfer.id).toBe(sent.body.transfer.id);
    await world.stripe.webhooksIdle();
    expect(world.stripe.paymentIntents().filter((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id)).toHaveLength(1);
    expect((await balances(world.server, bob)).USD).toEqual({ available: '10.00', pending: '0.00' });
  });

  it('JPY is charged in yen (zero-decimal), lower-case currency', async () => {
    const sent = await send(world.server, alice, { recipientHandle: bob.handle, amount: 1000, currency: 'JPY' });
    expect(sent.status, sent.text).toBe(200);
    const intent = world.stripe.paymentIntents().find((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id)!;
    expect(intent).toMatchObject({ amount: 1025, currency: 'jpy', status: 'succeeded' });
  });

  it('a declined card is 402 card_declined and moves nothing', async () => {
    const carol = await registerUser(world.server);
    await completeSetup(world, carol, '/agent/setup-link', 'pm_card_chargeDeclined');
    const before = await balances(world.server, bob);
    const declined = expectProblem(
      await send(world.server, carol, { recipientHandle: bob.handle, amount: 5, currency: 'USD' }),
      402,
      'card_declined',
    );
    await world.stripe.webhooksIdle();
    expect(await balances(world.server, bob)).toEqual(before);
    const history = await world.server.request('GET', '/transfers', { key: carol.key });
    expect(history.body.transfers[0]).toMatchObject({ id: declined.transferId, status: 'failed', failureCode: 'card_declined' });
  });

  it('a card that needs its holder is 402 card_authentication_required and moves nothing', async () => {
    const dave = await registerUser(world.server);
    await completeSetup(world, dave, '/agent/setup-link', 'pm_card_authenticationRequired');
    const before = await balances(world.server, bob);
    const problem = expectProblem(
      await send(world.server, dave, { recipientHandle: bob.handle, amount: 5, currency: 'USD' }),
      402,
      'card_authentication_required',
    );
    expect(problem.detail).toContain('/agent/setup-link');
    await world.stripe.webhooksIdle();
    expect(await balances(world.server, bob)).toEqual(before);
  });

  it('a total below Stripe’s minimum charge is refused before Stripe is asked', async () => {
    const asked = world.stripe.requests().length;
    expectProblem(await send(world.server, alice, { recipientHandle: bob.handle, amount: 0.48, currency: 'USD' }), 400, 'amount_too_small');
    expect(world.stripe.requests().length).toBe(asked);
  });
});
