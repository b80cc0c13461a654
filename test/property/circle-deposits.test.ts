// Property: with WALLET_PROVIDER=circle, each inbound Circle transaction is credited exactly once,
// whatever becomes of its notifications (delivered, dropped, duplicated, held back and delivered
// late in either order) and however the reconciliation poll's rounds interleave with them (also at
// once); and the ledger moves by exactly what was credited. Random scenarios of real transfers on
// the embedded chain, against the Circle stand-in (test/fakes/circle).
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Hash } from 'viem';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import type { NotificationFault } from '../fakes/circle/index.js';
import { faucet, ledgerBalance, mined } from '../helpers/stablecoin-chain.js';
import { startCircleDepositWorld, type CircleDepositWorld } from '../helpers/circle-deposits.js';

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

type Step =
  | { kind: 'deposit'; hundredths: number }
  | { kind: 'sync'; fault: NotificationFault | 'none'; count: number }
  | { kind: 'deliverLate'; order: 'created' | 'reverse' }
  | { kind: 'poll' }
  | { kind: 'syncAndPoll' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('deposit' as const), hundredths: fc.integer({ min: 1, max: 5_000 }) }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      fault: fc.constantFrom<NotificationFault | 'none'>('none', 'drop', 'duplicate', 'late'),
      count: fc.integer({ min: 1, max: 4 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('deliverLate' as const),
      order: fc.constantFrom<'created' | 'reverse'>('created', 'reverse'),
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('poll' as const) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('syncAndPoll' as const) }), weight: 1 },
);

/** Transfers sent before the steps (not yet seen by Circle), then the steps. */
const scenarioArb = fc.record({
  deposits: fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 3 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 8 }),
});

const poll = () => world.server.deps.circle.circleDepositPoll!.poll();

async function run(step: Step, sent: Map<Hash, bigint>): Promise<void> {
  if (step.kind === 'deposit') {
    const txHash = await faucet(world.server, { address: user.depositAddress, amount: step.hundredths / 100, currency: 'USDC' });
    await mined(world.server, txHash);
    sent.set(txHash, BigInt(step.hundredths) * 10_000n);
  } else if (step.kind === 'sync') {
    if (step.fault !== 'none') world.standIn.faults.notifications(step.fault, step.count);
    await world.sync();
  } else if (step.kind === 'deliverLate') {
    world.standIn.faults.deliverLate(step.order);
    await world.standIn.notificationsIdle();
  } else if (step.kind === 'poll') {
    await poll();
  } else {
    await Promise.all([world.sync(), poll()]);
  }
}

/** Deposit rows per transfer sent in this scenario, and what they credited. */
async function creditsOf(sent: Map<Hash, bigint>): Promise<{ rows: Map<Hash, number>; credited: bigint }> {
  const hashes = [...sent.keys()].map((h) => h.toLowerCase());
  if (hashes.length === 0) return { rows: new Map(), credited: 0n };
  const found = await world.server.deps.db
    .selectFrom('chain_deposits')
    .select(['tx_hash', 'amount', 'circle_transaction_id'])
    .where('tx_hash', 'in', hashes)
    .execute();
  const rows = new Map<Hash, number>();
  let credited = 0n;
  for (const row of found) {
    expect(row.circle_transaction_id).not.toBeNull();
    rows.set(row.tx_hash as Hash, (rows.get(row.tx_hash as Hash) ?? 0) + 1);
    credited += row.amount;
  }
  return { rows, credited };
}

it('credits each Circle inbound transaction exactly once, whatever happens to its notifications and polls', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ deposits, steps }) => {
      const before = await ledgerBalance(world.server, user.accountId, 'USDC');
      const sent = new Map<Hash, bigint>();
      for (const hundredths of deposits) await run({ kind: 'deposit', hundredths }, sent);
      for (const step of steps) {
        await run(step, sent);
        const { rows, credited } = await creditsOf(sent);
        for (const count of rows.values()) expect(count).toBe(1);
        expect(await ledgerBalance(world.server, user.accountId, 'USDC')).toBe(before + credited);
      }
      // In the end: Circle has seen every transfer, the held-back notifications arrive, the poll
      // reads to the end of the list (twice: the pass under way may have begun before them).
      world.standIn.faults.clear();
      await world.sync();
      world.standIn.faults.deliverLate();
      await world.standIn.notificationsIdle();
      let passes = 0;
      for (let round = 0; round < 20 && passes < 2; round++) if ((await poll()).passEnded) passes++;
      const { rows } = await creditsOf(sent);
      for (const hash of sent.keys()) expect(rows.get(hash.toLowerCase() as Hash), hash).toBe(1);
      const total = [...sent.values()].reduce((sum, amount) => sum + amount, 0n);
      expect(await ledgerBalance(world.server, user.accountId, 'USDC')).toBe(before + total);
    }),
    { numRuns: 12 },
  );
});
