// Deposits with WALLET_PROVIDER=circle against the repository's Circle stand-in (test/fakes/circle):
// tokens sent on the chain to a user's Circle wallet become INBOUND transactions there, whose
// signed notifications reach POST /webhooks/circle (verified with the key the stand-in serves) and
// whose list the reconciliation poll reads through the official SDK. Each is credited once:
// notifications duplicated, reordered or lost, and the poll overlapping them, change nothing more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { faucet, ledgerBalance, mined } from '../helpers/stablecoin-chain.js';
import { startCircleDepositWorld, type CircleDepositWorld } from '../helpers/circle-deposits.js';
import { settleAtCircle } from '../helpers/circle-custody.js';

let world: CircleDepositWorld;
let user: Awaited<ReturnType<CircleDepositWorld['circleUser']>>;

beforeAll(async () => {
  world = await startCircleDepositWorld();
  user = await world.circleUser();
});

afterAll(async () => {
  if (world) expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
  await world?.close();
});

/** Sends `amount` USDC on the chain to the user's Circle wallet; the Circle transaction id once the stand-in has seen it. */
async function deposit(amount: number): Promise<{ circleId: string; txHash: string }> {
  const txHash = await faucet(world.server, { address: user.depositAddress, amount, currency: 'USDC' });
  await mined(world.server, txHash);
  await world.sync();
  const tx = world.standIn.transactions().find((t) => t.transactionType === 'INBOUND' && t.txHash === txHash);
  if (!tx) throw new Error(`the stand-in did not see ${txHash}`);
  return { circleId: tx.id as string, txHash };
}

async function rowsOf(circleId: string) {
  return world.server.deps.db.selectFrom('chain_deposits').selectAll().where('circle_transaction_id', '=', circleId).execute();
}

const balance = () => ledgerBalance(world.server, user.accountId, 'USDC');

async function pollToEnd(): Promise<void> {
  for (let round = 0; round < 20; round++) if ((await world.server.deps.circle.circleDepositPoll!.poll()).passEnded) return;
  throw new Error('the poll did not reach the end of the list in 20 rounds');
}

describe('deposits from the stand-in', () => {
  it('credits a transfer to a Circle wallet once from its notifications (CONFIRMED, then COMPLETE)', async () => {
    const before = await balance();
    const { circleId, txHash } = await deposit(12.5);
    const rows = await rowsOf(circleId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account_id: user.accountId, amount: 12_500_000n, status: 'credited', tx_hash: txHash.toLowerCase() });
    expect(await balance()).toBe(before + 12_500_000n);
    const inbound = world.standIn.deliveries().filter((d) => d.status === 200);
    expect(inbound.length).toBeGreaterThanOrEqual(2);
  });

  it('credits once when every notification is delivered twice', async () => {
    const before = await balance();
    world.standIn.faults.notifications('duplicate', 2);
    const { circleId } = await deposit(3);
    expect(await rowsOf(circleId)).toHaveLength(1);
    expect(await balance()).toBe(before + 3_000_000n);
  });

  it('credits once when COMPLETE arrives before CONFIRMED', async () => {
    const before = await balance();
    world.standIn.faults.notifications('late', 2);
    const { circleId } = await deposit(4);
    expect(await rowsOf(circleId)).toHaveLength(0);
    world.standIn.faults.deliverLate('reverse');
    await world.standIn.notificationsIdle();
    expect(await rowsOf(circleId)).toHaveLength(1);
    expect(await balance()).toBe(before + 4_000_000n);
  });

  it('credits a deposit whose notifications were lost from the poll, once, and late notifications change nothing', async () => {
    await pollToEnd();
    const before = await balance();
    world.standIn.faults.notifications('late', 2);
    const { circleId } = await deposit(5);
    expect(await rowsOf(circleId)).toHaveLength(0);
    await pollToEnd();
    expect(await rowsOf(circleId)).toHaveLength(1);
    expect(await balance()).toBe(before + 5_000_000n);
    world.standIn.faults.deliverLate();
    await world.standIn.notificationsIdle();
    await pollToEnd();
    expect(await rowsOf(circleId)).toHaveLength(1);
    expect(await balance()).toBe(before + 5_000_000n);
  });

  it('credits once when notifications and poll rounds run at once', async () => {
    const before = await balance();
    world.standIn.faults.notifications('duplicate', 2);
    const txHash = await faucet(world.server, { address: user.depositAddress, amount: 6, currency: 'USDC' });
    await mined(world.server, txHash);
    const poll = () => world.server.deps.circle.circleDepositPoll!.poll();
    await Promise.all([world.sync(), poll(), poll()]);
    await pollToEnd();
    expect(await balance()).toBe(before + 6_000_000n);
    const rows = await world.server.deps.db.selectFrom('chain_deposits').select('id').where('tx_hash', '=', txHash.toLowerCase()).execute();
    expect(rows).toHaveLength(1);
  });

  it('leaves the deposit for the sweep, whose arrival at the treasury wallet is no deposit of anyone', async () => {
    const { circleId } = await deposit(8);
    const deposits = async () =>
      Number(
        (
          await world.server.deps.db
            .selectFrom('chain_deposits')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = { rows: await deposits(), balance: await balance() };
    for (let round = 0; round < 3; round++) {
      await world.server.deps.depositSweeps.run(10);
      await settleAtCircle({ server: world.server, circle: world.standIn }, 1);
      await world.standIn.notificationsIdle();
    }
    await pollToEnd();
    const [row] = await rowsOf(circleId);
    expect(row!.swept_at).not.toBeNull();
    // The sweep arrived at the treasury as an INBOUND transaction of the treasury wallet: not credited.
    const treasuryInbound = world.standIn
      .transactions()
      .filter((t) => t.transactionType === 'INBOUND' && t.refId === '' && t.walletId !== user.walletId);
    expect(treasuryInbound.length).toBeGreaterThan(0);
    expect({ rows: await deposits(), balance: await balance() }).toEqual(before);
  });

  it('refuses, with 400 and no change, a notification signed with another key id or not signed by Circle', async () => {
    const before = await balance();
    const body = JSON.stringify({ notificationId: randomUUID(), notificationType: 'webhooks.test', notification: {}, version: 2 });
    const signature = world.standIn.signNotification(body);
    const send = (headers: Record<string, string>) =>
      world.server.request('POST', '/webhooks/circle', { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
    expect((await send({ 'x-circle-key-id': world.standIn.notificationKeyId, 'x-circle-signature': signature })).status).toBe(200);
    expect((await send({ 'x-circle-key-id': randomUUID(), 'x-circle-signature': signature })).status).toBe(400);
    expect(
      (await send({ 'x-circle-key-id': world.standIn.notificationKeyId, 'x-circle-signature': world.standIn.signNotification('{}') }))
        .status,
    ).toBe(400);
    expect((await send({ 'x-circle-key-id': world.standIn.notificationKeyId })).status).toBe(400);
    expect(await balance()).toBe(before);
  });
});
