// Reconciliation in live mode (DESIGN §18): a day of card payments, refunds (with and without the
// fee), a dispute (with Stripe's dispute fee) and payouts, all through the Stripe stand-in and its
// webhooks, reconciles to zero difference: Stripe's balance transactions of the day, read through
// the processor adapter with GET /v1/balance_transactions, against the ledger's processor clearing.
// Then one booking removed from the ledger shows as exactly that one line, on the page and in the CSV.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { createPayoutJob } from '../../src/jobs/payout-job.js';
import { createReconciliationPages } from '../../src/console/pages/reconciliation-pages.js';
import type { ConsoleRoute } from '../../src/console/console-route.js';
import { registerUser, type TestUser } from '../helpers/test-server.js';
import { send } from '../helpers/fiat.js';
import {
  completeOnboarding,
  completeSetup,
  liveModeAvailable,
  LIVE_MODE_NEEDS,
  startLiveWorld,
  type LiveWorld,
} from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';

const OPERATOR_TOKEN = 'operator-token-live-reconciliation-0123456789';

describe.runIf(runsIf(liveModeAvailable(), LIVE_MODE_NEEDS))('live mode: reconciliation against Stripe', () => {
  let world: LiveWorld;
  let today: string;

  beforeAll(async () => {
    world = await startLiveWorld({ env: { OPERATOR_TOKEN } });
    today = world.clock.now().toISOString().slice(0, 10);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  async function pay(from: TestUser, to: TestUser, amount: number): Promise<{ id: string; intent: string }> {
    const sent = await send(world.server, from, { recipientHandle: to.handle, amount, currency: 'USD' });
    expect(sent.status, sent.text).toBe(200);
    await world.stripe.webhooksIdle();
    const intent = world.stripe.paymentIntents().find((pi) => pi.metadata.peerpay_transfer_id === sent.body.transfer.id)!;
    return { id: sent.body.transfer.id, intent: intent.id };
  }

  async function refund(transferId: string, body: Record<string, unknown>): Promise<string> {
    const response = await world.server.request('POST', `/admin/transfers/${transferId}/refund`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'idempotency-key': randomUUID() },
      body,
    });
    expect(response.status, response.text).toBe(200);
    await world.stripe.webhooksIdle();
    return response.body.refund.id;
  }

  const report = () => world.server.deps.reconciliation.report({ from: today, to: today });

  it('a day of card payments, refunds, a dispute and payouts reconciles to zero difference', async () => {
    const payer = await registerUser(world.server);
    await completeSetup(world, payer, '/agent/setup-link', 'pm_card_visa');
    const paidOut = await registerUser(world.server);
    await completeOnboarding(world, paidOut);
    const keeper = await registerUser(world.server);

    await pay(payer, paidOut, 25);
    await runJobsOnce(world.server.deps, undefined, [createPayoutJob(world.server.deps)]);
    await world.stripe.webhooksIdle();
    const refunded = await pay(payer, keeper, 40);
    await refund(refunded.id, { amount: 10, reason: 'requested_by_customer', note: 'asked by phone' });
    await refund(refunded.id, { amount: 5, refundFee: true, reason: 'duplicate', note: 'charged twice' });
    const disputed = await pay(payer, keeper, 30);
    world.stripe.openDispute(disputed.intent);
    await world.stripe.webhooksIdle();

    const types = world.stripe.balanceTransactions().map((t) => t.type);
    expect(new Set(types)).toEqual(new Set(['charge', 'refund', 'adjustment', 'transfer']));
    const result = await report();
    expect(result.lines.filter((line) => line.kind === 'processor')).toEqual([]);
    const usd = result.days.find((d) => d.currency === 'USD')!;
    expect(usd.movements).toBe(world.stripe.balanceTransactions().length);
    expect(usd.foundMinor).toBe(usd.expectedMinor);
    // The day's net at Stripe, as peerpay books it: charges in, refunds, the payout and the dispute (with its fee) out.
    const stripeNet = world.stripe
      .balanceTransactions()
      .reduce((sum, t) => sum + BigInt(t.reporting_category === 'dispute' ? t.net : t.amount), 0n);
    expect(usd.expectedMinor).toBe(stripeNet);
  });

  it('one booking removed from the ledger shows up as exactly that line, on the page and in the CSV', async () => {
    const refundRow = await world.server.deps.db
      .selectFrom('refunds')
      .select(['id', 'processor_ref', 'amount'])
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    // Ledger transfers are immutable (a trigger refuses a DELETE): the test goes around it as only a superuser can.
    const removed = await world.server.deps.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      return sql<{ id: string }>`delete from ledger_transfers where operation_id = ${`refund:${refundRow.id}`} returning id::text`.execute(
        trx,
      );
    });
    expect(removed.rows).toHaveLength(1);

    const result = await report();
    const lines = result.lines.filter((line) => line.kind === 'processor');
    expect(lines).toEqual([
      {
        day: today,
        asset: 'USD',
        kind: 'processor',
        subject: expect.stringContaining(`refund ${refundRow.processor_ref}`),
        expectedMinor: -refundRow.amount,
        foundMinor: 0n,
        note: 'at the processor, not in the books',
      },
    ]);
    const txn = world.stripe.balanceTransactions().find((t) => t.source === refundRow.processor_ref)!;
    expect(lines[0]!.subject).toContain(txn.id);

    const routes = createReconciliationPages({ reconciliation: world.server.deps.reconciliation, clock: world.clock });
    const call = (url: string) =>
      routes
        .find((r: ConsoleRoute) => r.url === url)!
        .handle({
          viewer: { operatorId: 'op_1', name: 'alice', role: 'viewer', csrfToken: 'csrf' },
          requestId: 'req-1',
          params: {},
          query: { from: today, to: today },
          form: {},
        });
    const page = await call('/console/reconciliation');
    if (!('page' in page)) throw new Error('expected a page');
    expect(page.page.body.text).toContain('1 difference, listed below.');
    expect(page.page.body.text).toContain(txn.id);
    expect(page.page.body.text).toContain('-10.00');
    const csv = await call('/console/reconciliation.csv');
    if (!('csv' in csv)) throw new Error('expected a CSV');
    const rows = csv.csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('day,asset,kind,subject,expected,found,difference,note');
    const processorRows = rows.filter((row) => row.includes(',processor,'));
    expect(processorRows).toHaveLength(1);
    expect(processorRows[0]).toContain(`${today},USD,processor,${txn.id} (refund ${refundRow.processor_ref}),-10.00,0.00,10.00,`);
  });
});
