// The console's snapshots and Overview page (DESIGN §18): the snapshot job takes one take per
// 5-minute slot (however many processes run it: the slot is the key), with the hot wallet per
// token, the slot's transfer volume per rail and asset, and the webhook failures; the takes older
// than 31 days go; the Overview page shows the treasury figures and draws the charts from the takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshotJob } from '../../src/jobs/snapshot-job.js';
import { createOverviewPages } from '../../src/console/pages/overview-pages.js';
import { SNAPSHOT_INTERVAL_MS, SNAPSHOT_RETENTION_MS, slotOf } from '../../src/operations/snapshots/snapshot-take.js';
import { createSnapshots } from '../../src/operations/snapshots/snapshots-service.js';
import { agentTransfer, fund } from '../helpers/stablecoin.js';
import { registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';

describe('console snapshots and the Overview page', () => {
  let server: TestServer;
  const snapshotJob = () => createSnapshotJob(server.deps);

  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const rowsOf = (takenAt: Date) =>
    server.deps.db
      .selectFrom('snapshots')
      .select(['metric', 'rail', 'asset', 'value'])
      .where('taken_at', '=', takenAt)
      .orderBy('metric')
      .orderBy('asset')
      .execute();

  it('one take per slot, even from two processes, with the slot before it counted', async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    await fund(server, alice, 50_000_000n);
    const sent = await agentTransfer(server, alice, { to: bob.handle, amount: 12.5, currency: 'USDC' });
    expect(sent.status, sent.text).toBe(200);
    // The transfer lies in the slot under way; the take at the start of the next slot counts it.
    const clock = server.deps.sandboxClock!;
    const next = slotOf(new Date(clock.now().getTime() + SNAPSHOT_INTERVAL_MS));
    await clock.advance(BigInt(next.getTime() - clock.now().getTime() + 1000));

    // A second process's service over the same database races for the same slot.
    const other = createSnapshots({ db: server.deps.db, chain: server.deps.chain, wallets: server.deps.wallets, clock });
    const [mine, theirs] = await Promise.all([snapshotJob().run(), other.takeIfDue()]);
    expect(mine + theirs).toBeGreaterThanOrEqual(4);
    expect(await snapshotJob().run()).toBe(0);

    const rows = await rowsOf(next);
    const hotUsdc = await server.deps.chain.chain.getTokenBalance({
      token: server.deps.chain.tokens.USDC,
      holder: server.deps.wallets.hotWallet.address,
    });
    expect(rows).toEqual([
      { metric: 'hot_wallet', rail: 'chain', asset: 'EURC', value: expect.any(BigInt) },
      { metric: 'hot_wallet', rail: 'chain', asset: 'USDC', value: hotUsdc },
      { metric: 'transfer_volume', rail: 'stablecoin', asset: 'USDC', value: 12_500_000n },
      { metric: 'webhook_failures', rail: 'webhooks', asset: '', value: 0n },
    ]);
  });

  it('takes older than 31 days are deleted', async () => {
    const clock = server.deps.sandboxClock!;
    const old = slotOf(new Date(clock.now().getTime() - SNAPSHOT_RETENTION_MS - SNAPSHOT_INTERVAL_MS));
    await server.deps.db
      .insertInto('snapshots')
      .values({ taken_at: old, metric: 'webhook_failures', rail: 'webhooks', asset: '', value: 3n })
      .execute();
    await clock.advance(BigInt(SNAPSHOT_INTERVAL_MS));
    await snapshotJob().run();
    expect(await rowsOf(old)).toEqual([]);
  });

  it('the Overview page: figures per token, readiness, backlogs and the charts of 24 hours and 30 days', async () => {
    const [route] = createOverviewPages(server.deps);
    const answer = await route!.handle({
      viewer: { operatorId: 'op_1', name: 'alice', role: 'viewer', csrfToken: 't' },
      requestId: 'req-1',
      params: {},
      query: {},
      form: {},
    });
    if (!('page' in answer)) throw new Error('expected a page');
    expect(answer.page).toMatchObject({ title: 'Overview', nav: 'Overview' });
    const body = answer.page.body.text;
    for (const heading of ['Readiness: ', 'Custody per token', 'Backlogs', 'Charts, last 24 hours', 'Charts, last 30 days'])
      expect(body).toContain(heading);
    expect(body).toMatch(/<th scope="row">USDC<\/th>/);
    expect(body).toContain('<title id="hot-USDC-24h-title">Hot wallet, USDC, last 24 hours</title>');
    expect(body).toContain('<title id="volume-stablecoin-USDC-24h-title">Transfer volume per hour, stablecoin USDC, last 24 hours</title>');
    expect(body).toContain('<title id="volume-stablecoin-USDC-30d-title">Transfer volume per day, stablecoin USDC, last 30 days</title>');
    // The take's 12.5 USDC is a bar, titled with its exact amount.
    expect(body).toMatch(/<title>[^<]+: 12\.5 USDC<\/title><\/rect>/);
    expect(body).toContain('<title id="webhook-failures-24h-title">');
  });
});
