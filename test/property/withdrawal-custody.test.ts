// Property: whatever mix of funding (a swept deposit: tokens reach the hot wallet and the user's
// balance), internal transfers and withdrawals (sequential or concurrent, affordable or not) runs,
// once the jobs have settled, peerpay's custody in the ledger equals what the hot wallet holds on
// chain, no balance is below zero, the ledger's invariants hold, and every completed withdrawal
// put exactly its net on chain at its address.
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { stablecoinFee } from '../../src/money/fees.js';
import { fund } from '../helpers/stablecoin.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { freshAddress, fundHotWallet, onChainBalance, settleWithdrawals, withdraw } from '../helpers/withdrawals.js';

let server: TestServer;
let users: TestUser[];

beforeAll(async () => {
  server = await startTestServer();
  users = [await registerUser(server), await registerUser(server), await registerUser(server)];
});
afterAll(async () => {
  await server?.close();
});

type Step =
  | { kind: 'fund'; user: number; amountMinor: bigint }
  | { kind: 'transfer'; from: number; to: number; amountMinor: bigint }
  | { kind: 'withdraw'; user: number; amountMinor: bigint }
  | { kind: 'concurrent'; user: number; amountsMinor: bigint[] };

const amount = fc.bigInt({ min: 1n, max: 3_000_000n });
/** The smallest withdrawal and the smallest transfer (DESIGN §15), in minor units of USDC. */
const MINIMUM_WITHDRAWAL_MINOR = 1_000_000n;
const MINIMUM_TRANSFER_MINOR = 10_000n;
const userIndex = fc.integer({ min: 0, max: 2 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('fund' as const), user: userIndex, amountMinor: amount }),
  fc.record({ kind: fc.constant('transfer' as const), from: userIndex, to: userIndex, amountMinor: amount }),
  fc.record({ kind: fc.constant('withdraw' as const), user: userIndex, amountMinor: amount }),
  fc.record({ kind: fc.constant('concurrent' as const), user: userIndex, amountsMinor: fc.array(amount, { minLength: 2, maxLength: 5 }) }),
);

const major = (minor: bigint) => Number(`${minor / 1_000_000n}.${(minor % 1_000_000n).toString().padStart(6, '0')}`);

async function custodyMinor(): Promise<bigint> {
  const row = await server.deps.db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('code', '=', 'platform:chain_custody:USDC')
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

async function run(steps: Step[]): Promise<void> {
  const sent: { address: string; netMinor: bigint; withdrawalId: string }[] = [];
  const doWithdraw = async (user: number, amountMinor: bigint) => {
    const address = freshAddress();
    const response = await withdraw(server, users[user]!, { amount: major(amountMinor), currency: 'USDC', address });
    if (response.status === 200)
      sent.push({ address, netMinor: stablecoinFee(amountMinor)!.net, withdrawalId: response.body.withdrawalId });
    else expect(response.body.code).toBe(amountMinor < MINIMUM_WITHDRAWAL_MINOR ? 'amount_too_small' : 'insufficient_balance');
  };
  for (const s of steps) {
    if (s.kind === 'fund') {
      await fundHotWallet(server, s.amountMinor);
      await fund(server, users[s.user]!, s.amountMinor);
    } else if (s.kind === 'transfer') {
      const response = await server.request('POST', '/agent/transfer', {
        key: users[s.from]!.key,
        body: { to: users[s.to]!.handle, amount: major(s.amountMinor), currency: 'USDC' },
      });
      expect([200, 400]).toContain(response.status);
      if (s.amountMinor < MINIMUM_TRANSFER_MINOR) expect(response.body.code).toBe('amount_too_small');
    } else if (s.kind === 'withdraw') {
      await doWithdraw(s.user, s.amountMinor);
    } else {
      await Promise.all(s.amountsMinor.map((a) => doWithdraw(s.user, a)));
    }
  }
  await settleWithdrawals(server);
  expect(-(await custodyMinor())).toBe(await onChainBalance(server, server.deps.wallets.hotWallet.address));
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  for (const w of sent) expect(await onChainBalance(server, w.address)).toBe(w.netMinor);
  const statuses = await server.deps.db
    .selectFrom('withdrawals')
    .select('status')
    .where('id', 'in', sent.length ? sent.map((w) => w.withdrawalId) : ['none'])
    .execute();
  expect(statuses.every((r) => r.status === 'complete')).toBe(true);
}

it('ledger custody equals the hot wallet’s on-chain holdings after any mix of funding, transfers and withdrawals', async () => {
  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), run), { numRuns: 12 });
}, 120_000);
