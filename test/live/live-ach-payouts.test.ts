// Live mode: ACH bank debits (pending until Stripe's webhook settles or returns them) and payouts
// to a Connect Express account (onboarded through an Account Link, ready on account.updated).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { bindJob } from '../../src/jobs/job.js';
import { payoutJob } from '../../src/jobs/payout-job.js';
import { expectProblem, registerUser, type TestUser } from '../helpers/test-server.js';
import { balances, send } from '../helpers/fiat.js';
import {
  completeOnboarding,
  completeSetup,
  lastPathSegment,
  liveModeAvailable,
  LIVE_MODE_NEEDS,
  startLiveWorld,
  type LiveWorld,
} from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';

describe.runIf(runsIf(liveModeAvailable(), LIVE_MODE_NEEDS))('live mode: ACH and payouts through Stripe', () => {
  let world: LiveWorld;
  let payer: TestUser;
  let returner: TestUser;
  let payee: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld();
    [payer, returner, payee] = [await registerUser(world.server), await registerUser(world.server), await registerUser(world.server)];
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    await world.close();
  });

  it('ACH without a mandate is 409 ach_setup_required; the bank-debit link is a us_bank_account Checkout Session in USD', async () => {
    const problem = expectProblem(
      await send(world.server, payer, { recipientHandle: payee.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' }),
      409,
      'ach_setup_required',
    );
    expect(problem.needsBankDebitSetup).toBe(true);
    const sessionId = await completeSetup(world, payer, '/agent/bank-debit-link', 'pm_usBankAccount_success');
    expect(world.stripe.checkoutSessions().find((s) => s.id === sessionId)).toMatchObject({
      payment_method_types: ['us_bank_account'],
      currency: 'usd',
      status: 'complete',
    });
  });

  it('an ACH transfer is pending until payment_intent.succeeded, then completed, credited once', async () => {
    const sent = await send(world.server, payer, { recipientHandle: payee.handle, amount: 20, currency: 'USD', paymentMethod: 'ach' });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.transfer).toMatchObject({ status: 'pending', fee: '0.16', totalDeducted: '20.16' });
    const intent = world.stripe.paymentIntents().find((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id)!;
    expect(intent).toMatchObject({ status: 'processing', amount: 2016, payment_method_types: ['us_bank_account'] });
    const asked = world.stripe.requests().find((r) => r.path === '/v1/payment_intents' && r.idempotencyKey === sent.body.transfer.id)!;
    expect(asked.params).toMatchObject({
      mandate: expect.stringMatching(/^mandate_/),
      payment_method: expect.stringMatching(/^pm_/),
      off_session: 'true',
      confirm: 'true',
    });
    expect((await balances(world.server, payee)).USD).toEqual({ available: '0.00', pending: '20.00' });
    world.stripe.settleBankDebits([intent.id]);
    await world.stripe.webhooksIdle();
    expect((await balances(world.server, payee)).USD).toEqual({ available: '20.00', pending: '0.00' });
    const history = await world.server.request('GET', '/transfers', { key: payer.key });
    expect(history.body.transfers[0]).toMatchObject({ id: sent.body.transfer.id, status: 'completed' });
  });

  it('a returned debit (payment_intent.payment_failed) fails the transfer and takes the pending credit back', async () => {
    await completeSetup(world, returner, '/agent/bank-debit-link', 'pm_usBankAccount_insufficientFunds');
    const before = await balances(world.server, payee);
    const sent = await send(world.server, returner, { recipientHandle: payee.handle, amount: 7, currency: 'USD', paymentMethod: 'ach' });
    expect(sent.body.transfer.status).toBe('pending');
    expect((await balances(world.server, payee)).USD!.pending).toBe('7.00');
    world.stripe.settleBankDebits();
    await world.stripe.webhooksIdle();
    expect(await balances(world.server, payee)).toEqual(before);
    const history = await world.server.request('GET', '/transfers', { key: returner.key });
    expect(history.body.transfers[0]).toMatchObject({ status: 'failed', failureCode: 'bank_debit_returned' });
  });

  it('a connect link makes one Express account and an onboarding link; payouts start once account.updated says payouts_enabled', async () => {
    const first = await world.server.request('POST', '/agent/connect-link', { key: payee.key });
    expect(first.status).toBe(200);
    const second = await world.server.request('POST', '/agent/connect-link', { key: payee.key });
    expect(second.body.url).not.toBe(first.body.url);
    const accounts = world.stripe.accounts().filter((a) => a.email === payee.email);
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ type: 'express', payouts_enabled: false });
    // Not onboarded yet: the payout job pays nothing.
    await runJobsOnce(world.server.deps, undefined, [bindJob(payoutJob, world.server.deps)]);
    expect(world.stripe.transfers()).toHaveLength(0);

    const accountId = await completeOnboarding(world, payee);
    expect(accountId).toBe(accounts[0]!.id);
    await runJobsOnce(world.server.deps, undefined, [bindJob(payoutJob, world.server.deps)]);
    const transfers = world.stripe.transfers().filter((t) => t.destination === accountId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ amount: 2000, currency: 'usd' });
    expect((await balances(world.server, payee)).USD).toEqual({ available: '0.00', pending: '0.00' });
    // A second round pays nothing more.
    await runJobsOnce(world.server.deps, undefined, [bindJob(payoutJob, world.server.deps)]);
    expect(world.stripe.transfers()).toHaveLength(1);
    const payoutRequest = world.stripe.requests().find((r) => r.path === '/v1/transfers')!;
    expect(payoutRequest.idempotencyKey).toMatch(/^po_/);
    expect(lastPathSegment(first.body.url)).not.toBe('');
  });
});
