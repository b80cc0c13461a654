// Live mode: Stripe answering 500 or not answering in the middle of a charge. The outcome is then
// unknown to peerpay: the transfer stays `processing` and the client gets 503 processor_unavailable.
// Whatever comes next (the client's retry with the same Idempotency-Key, Stripe's webhook, or the
// recovery job) asks Stripe again under the same key or records Stripe's word, so the card is
// charged once and the recipient credited once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { bindJob } from '../../src/jobs/job.js';
import { fiatRecoveryJob } from '../../src/jobs/fiat-recovery-job.js';
import { UnrecoverableTransferError, recoverOrphanedTransfers } from '../../src/fiat/transfer-recovery.js';
import { TEST_MASTER_SEED, expectProblem, registerUser, type TestUser } from '../helpers/test-server.js';
import { balances, send } from '../helpers/fiat.js';
import {
  LIVE_STRIPE_SECRET_KEY,
  LIVE_STRIPE_WEBHOOK_SECRET,
  completeSetup,
  liveModeAvailable,
  LIVE_MODE_NEEDS,
  startLiveWorld,
  type LiveWorld,
} from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';

const PAYMENT_INTENTS = '/v1/payment_intents';

describe.runIf(runsIf(liveModeAvailable(), LIVE_MODE_NEEDS))('live mode: Stripe failing mid-charge', () => {
  let world: LiveWorld;
  let payer: TestUser;
  let payee: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld({ webhookMode: 'manual' });
    [payer, payee] = [await registerUser(world.server), await registerUser(world.server)];
    world.stripe.setWebhookMode('auto');
    await completeSetup(world, payer, '/agent/setup-link', 'pm_card_visa');
    world.stripe.setWebhookMode('manual');
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    // Failed Stripe calls are logged (503s, the recovery job) without a secret.
    const logs = world.server.logs.join('');
    expect(logs).toContain('payment processor call failed');
    for (const secret of [LIVE_STRIPE_SECRET_KEY, LIVE_STRIPE_WEBHOOK_SECRET, TEST_MASTER_SEED.slice(2)])
      expect(logs).not.toContain(secret);
    await world.close();
  });

  const intentsOf = (transferId: string) => world.stripe.paymentIntents().filter((pi) => pi.metadata.peerpay_transfer_id === transferId);
  const usd = async (user: TestUser) => (await balances(world.server, user)).USD!;

  it('a 500 before Stripe did anything is retried by the client library: one charge, 200 at once', async () => {
    world.stripe.failNext({ path: PAYMENT_INTENTS, fault: 500, when: 'before' });
    const sent = await send(
      world.server,
      payer,
      { recipientHandle: payee.handle, amount: 3, currency: 'USD' },
      { 'idempotency-key': 'f-before' },
    );
    expect(sent.status, sent.text).toBe(200);
    expect(intentsOf(sent.body.transfer.id)).toHaveLength(1);
  });

  it('500 after the charge on every attempt: 503, then the retried request with the same key finds the same charge', async () => {
    const before = await usd(payee);
    world.stripe.failNext({ path: PAYMENT_INTENTS, fault: 500, when: 'after', count: 3 });
    const body = { recipientHandle: payee.handle, amount: 4, currency: 'USD' };
    expectProblem(await send(world.server, payer, body, { 'idempotency-key': 'f-after' }), 503, 'processor_unavailable');
    const [processing] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    expect(processing.status).toBe('processing');
    expect(await usd(payee)).toEqual(before);
    const retried = await send(world.server, payer, body, { 'idempotency-key': 'f-after' });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body.transfer).toMatchObject({ id: processing.id, status: 'completed' });
    expect(intentsOf(processing.id)).toHaveLength(1);
    // The webhook of that charge comes too, and changes nothing.
    for (const event of world.stripe.pendingWebhooks()) await world.stripe.deliver(event.id);
    expect((await usd(payee)).available).toBe((Number(before.available) + 4).toFixed(2));
  });

  it('Stripe hangs after charging: the webhook records the charge while the client waits for nothing', async () => {
    const before = await usd(payee);
    world.stripe.failNext({ path: PAYMENT_INTENTS, fault: 'timeout', when: 'after', count: 3 });
    const body = { recipientHandle: payee.handle, amount: 6, currency: 'USD' };
    expectProblem(await send(world.server, payer, body, { 'idempotency-key': 'f-timeout' }), 503, 'processor_unavailable');
    const [processing] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    expect(processing.status).toBe('processing');
    const succeeded = world.stripe.pendingWebhooks().filter((e) => e.type === 'payment_intent.succeeded');
    expect(succeeded).toHaveLength(1);
    await world.stripe.deliver(succeeded[0]!.id);
    expect((await usd(payee)).available).toBe((Number(before.available) + 6).toFixed(2));
    const retried = await send(world.server, payer, body, { 'idempotency-key': 'f-timeout' });
    expect(retried.body.transfer).toMatchObject({ id: processing.id, status: 'completed' });
    expect(intentsOf(processing.id)).toHaveLength(1);
    expect((await usd(payee)).available).toBe((Number(before.available) + 6).toFixed(2));
  });

  it('a client that never retries: the recovery job asks Stripe again with the same key after two minutes', async () => {
    const before = await usd(payee);
    world.stripe.failNext({ path: PAYMENT_INTENTS, fault: 500, when: 'after', count: 3 });
    expectProblem(
      await send(world.server, payer, { recipientHandle: payee.handle, amount: 8, currency: 'USD' }),
      503,
      'processor_unavailable',
    );
    const [processing] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    world.clock.advance(3 * 60_000);
    await runJobsOnce(world.server.deps, undefined, [bindJob(fiatRecoveryJob, world.server.deps)]);
    const [recovered] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    expect(recovered).toMatchObject({ id: processing.id, status: 'completed' });
    expect(intentsOf(processing.id)).toHaveLength(1);
    expect((await usd(payee)).available).toBe((Number(before.available) + 8).toFixed(2));
    for (const event of world.stripe.pendingWebhooks()) await world.stripe.deliver(event.id);
  });

  it('an orphan older than Stripe’s 24-hour key memory is never charged again: it is reported and left for an operator', async () => {
    world.stripe.failNext({ path: PAYMENT_INTENTS, fault: 503, when: 'before', count: 3 });
    expectProblem(
      await send(world.server, payer, { recipientHandle: payee.handle, amount: 11, currency: 'USD' }),
      503,
      'processor_unavailable',
    );
    const [processing] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    world.clock.advance(24 * 3600_000);
    await expect(recoverOrphanedTransfers(world.server.deps, 10)).rejects.toBeInstanceOf(UnrecoverableTransferError);
    expect(intentsOf(processing.id)).toHaveLength(0);
    const [still] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    expect(still).toMatchObject({ id: processing.id, status: 'processing' });
    // Settle it by hand for the rest of the file: nothing was charged, so it failed.
    await world.server.deps.db
      .updateTable('fiat_transfers')
      .set({ status: 'failed', failure_code: 'processor_unavailable' })
      .where('id', '=', processing.id)
      .execute();
  });

  it('Stripe down for the whole request (refused before anything): 503, nothing charged, and the retry charges once', async () => {
    world.stripe.failNext({ path: PAYMENT_INTENTS, fault: 503, when: 'before', count: 3 });
    const body = { recipientHandle: payee.handle, amount: 9, currency: 'USD' };
    expectProblem(await send(world.server, payer, body, { 'idempotency-key': 'f-down' }), 503, 'processor_unavailable');
    const [processing] = (await world.server.request('GET', '/transfers', { key: payer.key })).body.transfers;
    expect(intentsOf(processing.id)).toHaveLength(0);
    const retried = await send(world.server, payer, body, { 'idempotency-key': 'f-down' });
    expect(retried.body.transfer).toMatchObject({ id: processing.id, status: 'completed' });
    expect(intentsOf(processing.id)).toHaveLength(1);
    for (const event of world.stripe.pendingWebhooks()) await world.stripe.deliver(event.id);
  });
});
