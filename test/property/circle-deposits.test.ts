// Property: with WALLET_PROVIDER=circle, each inbound Circle transaction is credited exactly once,
// whatever the order, repetition (also at once) or loss of its notifications and however the
// reconciliation poll's rounds interleave with them; never before Circle calls it COMPLETE; and
// the ledger moves by exactly what was credited. Random scenarios over real transfers on the
// embedded chain, against the small Circle of test/helpers/circle-deposits.ts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CircleTransaction } from '../../src/adapters/circle/circle-port.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { accountIdByHandle, faucet, ledgerBalance, mined } from '../helpers/stablecoin-chain.js';
import { createTestCircle, inboundOf, notify, type TestCircle } from '../helpers/circle-deposits.js';

let server: TestServer;
let circle: TestCircle;
let user: TestUser;
let userId: number;
let walletId: string;

beforeAll(async () => {
  circle = createTestCircle();
  server = await startTestServer({}, { circleDeposits: { api: circle.api, verifier: circle.verifier, treasuryAddress: async () => null } });
  user = await registerUser(server);
  userId = await accountIdByHandle(server, user);
  walletId = (await server.deps.db.selectFrom('accounts').select('wallet_id').where('id', '=', userId).executeTakeFirstOrThrow())
    .wallet_id!;
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

type Step =
  | { kind: 'complete'; i: number }
  | { kind: 'notify'; i: number; copies: number }
  | { kind: 'notifyConfirmed'; i: number }
  | { kind: 'poll' }
  | { kind: 'notifyAndPoll'; i: number };

const MAX_TRANSACTIONS = 3;

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('complete' as const), i: fc.nat(MAX_TRANSACTIONS - 1) }),
  fc.record({ kind: fc.constant('notify' as const), i: fc.nat(MAX_TRANSACTIONS - 1), copies: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('notifyConfirmed' as const), i: fc.nat(MAX_TRANSACTIONS - 1) }),
  fc.record({ kind: fc.constant('poll' as const) }),
  fc.record({ kind: fc.constant('notifyAndPoll' as const), i: fc.nat(MAX_TRANSACTIONS - 1) }),
);

const scenarioArb = fc.record({
  amounts: fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: MAX_TRANSACTIONS }),
  steps: fc.array(stepArb, { maxLength: 10 }),
});

async function creditedCount(id: string): Promise<number> {
  const rows = await server.deps.db.selectFrom('chain_deposits').select('id').where('circle_transaction_id', '=', id).execute();
  return rows.length;
}

async function run(step: Step, txs: CircleTransaction[]): Promise<void> {
  const poll = () => server.deps.circle.circleDepositPoll!.poll();
  if (step.kind === 'poll') {
    await poll();
    return;
  }
  const tx = txs[step.i % txs.length]!;
  const at = txs.indexOf(tx);
  if (step.kind === 'complete') {
    txs[at] = { ...tx, state: 'COMPLETE', updateDate: new Date() };
    circle.put(txs[at]);
  } else if (step.kind === 'notify') {
    const answers = await Promise.all(Array.from({ length: step.copies }, () => notify(server, tx)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  } else if (step.kind === 'notifyConfirmed') {
    expect((await notify(server, { ...tx, state: 'CONFIRMED' })).status).toBe(200);
  } else {
    const [answer] = await Promise.all([notify(server, tx), poll()]);
    expect(answer.status).toBe(200);
  }
}

it('credits each Circle inbound transaction exactly once, whatever happens to its notifications and polls', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ amounts, steps }) => {
      const before = await ledgerBalance(server, userId, 'USDC');
      const txs: CircleTransaction[] = [];
      for (const amount of amounts) {
        // Amounts in hundredths of a USDC: the faucet takes decimals.
        const txHash = await faucet(server, { address: user.depositAddress, amount: amount / 100, currency: 'USDC' });
        await mined(server, txHash);
        txs.push(await inboundOf(server, { txHash, to: user.depositAddress, walletId, token: 'USDC', state: 'CONFIRMED' }));
        circle.put(txs[txs.length - 1]!);
      }
      const everComplete = new Set<string>();
      for (const step of steps) {
        await run(step, txs);
        for (const tx of txs) if (tx.state === 'COMPLETE') everComplete.add(tx.id);
        let credited = 0n;
        for (const tx of txs) {
          const count = await creditedCount(tx.id);
          expect(count).toBeLessThanOrEqual(1);
          if (count === 1) {
            expect(everComplete.has(tx.id)).toBe(true);
            credited += tx.amount;
          }
        }
        expect(await ledgerBalance(server, userId, 'USDC')).toBe(before + credited);
      }
      // In the end every transaction completes at Circle and the poll reads to the end of the list.
      for (let i = 0; i < txs.length; i++) await run({ kind: 'complete', i }, txs);
      // Two passes: the one under way may have read them before they completed.
      let passes = 0;
      for (let round = 0; round < 20 && passes < 2; round++) if ((await server.deps.circle.circleDepositPoll!.poll()).passEnded) passes++;
      for (const tx of txs) expect(await creditedCount(tx.id)).toBe(1);
      const total = txs.reduce((sum, tx) => sum + tx.amount, 0n);
      expect(await ledgerBalance(server, userId, 'USDC')).toBe(before + total);
    }),
    { numRuns: 12 },
  );
});
