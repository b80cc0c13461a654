// Property (decision 0019): whatever mix of deposits (credited at once, in the hot wallet only once
// swept), sweeps, withdrawals (sequential or concurrent, affordable or not) and rounds of the chain jobs (the outbox, withdrawals, the ceiling's cold transfers) runs, no
// affordable withdrawal is refused and none reverts on chain: each is accepted and, once the
// operator has brought back from cold storage what the waiting ones need, sent exactly once with
// its net. The custody check never finds a shortfall, and at the end the chain's side (hot wallet
// plus what is still at the cold address of what went there and did not come back) equals the
// books, also once the operator has put tokens of their own at the cold address.
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { erc20Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { checkCustody } from '../../src/books/custody-check.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { stablecoinFee } from '../../src/money/fees.js';
import { runColdTransfers } from '../../src/stablecoin/treasury/cold-transfers.js';
import { processWithdrawals } from '../../src/stablecoin/withdrawal-processing.js';
import { runSweeps } from '../../src/stablecoin/sweeps/sweep-service.js';
import { chainClients, drainDeposits, faucet, mined } from '../helpers/stablecoin-chain.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { freshAddress, onChainBalance } from '../helpers/withdrawals.js';

const cold = privateKeyToAccount(generatePrivateKey());
let server: TestServer;
let users: TestUser[];
/** What the hot wallet held for other reasons: not on the books. */
let outside = 0n;

beforeAll(async () => {
  server = await startTestServer({ HOT_WALLET_MAX_USDC: '4', COLD_WALLET_ADDRESS: cold.address });
  users = [await registerUser(server), await registerUser(server)];
  outside = await onChainBalance(server, server.deps.wallets.hotWallet.address);
  await server.deps.chain.sandboxChain!.setNativeBalance({ address: cold.address, wei: 10n ** 20n });
});
afterAll(async () => {
  await server?.close();
});

type Step =
  | { kind: 'deposit'; user: number; amountMinor: bigint }
  | { kind: 'sweep' }
  | { kind: 'withdraw'; user: number; amountMinor: bigint }
  | { kind: 'concurrent'; user: number; amountsMinor: bigint[] }
  | { kind: 'round' };

const amount = fc.bigInt({ min: 1_000_000n, max: 6_000_000n });
const userIndex = fc.integer({ min: 0, max: 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), user: userIndex, amountMinor: amount }),
  fc.constant({ kind: 'sweep' as const }),
  fc.record({ kind: fc.constant('withdraw' as const), user: userIndex, amountMinor: amount }),
  fc.record({ kind: fc.constant('concurrent' as const), user: userIndex, amountsMinor: fc.array(amount, { minLength: 2, maxLength: 4 }) }),
  fc.constant({ kind: 'round' as const }),
);

const major = (minor: bigint) => Number(`${minor / 1_000_000n}.${(minor % 1_000_000n).toString().padStart(6, '0')}`);

async function round(): Promise<void> {
  await server.deps.hotWalletOutbox.reconcile(50);
  await processWithdrawals(server.deps, 50);
  await runColdTransfers(server.deps);
}

async function expectNoShortfallNorRevert(): Promise<void> {
  const usdc = (await checkCustody(server.deps)).find((r) => r.token === 'USDC')!;
  expect(usdc.ok).toBe(true);
  const bad = await server.deps.db.selectFrom('hot_wallet_outbox').select('id').where('status', '=', 'reverted').execute();
  expect(bad).toEqual([]);
  const failed = await server.deps.db.selectFrom('withdrawals').select('id').where('status', '=', 'failed').execute();
  expect(failed).toEqual([]);
}

/** The operator moves `amountMinor` from the cold address back to the hot wallet. */
async function returnFromCold(amountMinor: bigint): Promise<void> {
  const { publicClient } = chainClients(server);
  const { createWalletClient, http } = await import('viem');
  const wallet = createWalletClient({ account: cold, chain: publicClient.chain, transport: http(server.deps.chain.rpcUrl) });
  const hash = await wallet.writeContract({
    address: server.deps.chain.tokens.USDC,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [server.deps.wallets.hotWallet.address, amountMinor],
  });
  await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  // Counted once (decisions 0024 and 0025): in the hot wallet now, and no longer at the cold address.
}

async function run(steps: Step[]): Promise<void> {
  const sent: { address: string; netMinor: bigint; withdrawalId: string }[] = [];
  const doWithdraw = async (user: number, amountMinor: bigint) => {
    const address = freshAddress();
    const response = await server.request('POST', '/stablecoin/withdraw', {
      key: users[user]!.key,
      body: { amount: major(amountMinor), currency: 'USDC', address },
    });
    if (response.status === 200)
      sent.push({ address, netMinor: stablecoinFee(amountMinor)!.net, withdrawalId: response.body.withdrawalId });
    else expect(response.body.code).toBe('insufficient_balance');
  };
  for (const s of steps) {
    if (s.kind === 'deposit') {
      await mined(server, await faucet(server, { address: users[s.user]!.depositAddress, amount: major(s.amountMinor), currency: 'USDC' }));
      await drainDeposits(server);
    } else if (s.kind === 'sweep') {
      await runSweeps(server.deps, 20);
      await server.deps.hotWalletOutbox.reconcile(50);
    } else if (s.kind === 'withdraw') {
      await doWithdraw(s.user, s.amountMinor);
    } else if (s.kind === 'concurrent') {
      await Promise.all(s.amountsMinor.map((a) => doWithdraw(s.user, a)));
    } else {
      await round();
    }
    await expectNoShortfallNorRevert();
  }
  // Everything deposited is swept; what the waiting withdrawals still lack (it went cold meanwhile)
  // the operator brings back from the cold address.
  for (let i = 0; i < 4; i++) {
    await runSweeps(server.deps, 20);
    await round();
  }
  const waiting = await server.deps.db.selectFrom('withdrawals').select(['net']).where('status', '=', 'pending').execute();
  const need = waiting.reduce((sum, w) => sum + w.net, 0n);
  const hot = await onChainBalance(server, server.deps.wallets.hotWallet.address);
  if (need > hot) await returnFromCold(need - hot);
  for (let i = 0; i < 6; i++) await round();
  await expectNoShortfallNorRevert();

  const statuses = await server.deps.db
    .selectFrom('withdrawals')
    .select('status')
    .where('id', 'in', sent.length ? sent.map((w) => w.withdrawalId) : ['none'])
    .execute();
  expect(statuses.filter((r) => r.status !== 'complete')).toEqual([]);
  for (const w of sent) expect(await onChainBalance(server, w.address)).toBe(w.netMinor);
  const outbox = await server.deps.db
    .selectFrom('hot_wallet_outbox')
    .select('reference_id')
    .where('purpose', '=', 'withdrawal')
    .where('reference_id', 'in', sent.length ? sent.map((w) => w.withdrawalId) : ['none'])
    .execute();
  expect(outbox).toHaveLength(sent.length);
  const usdc = (await checkCustody(server.deps)).find((r) => r.token === 'USDC')!;
  expect(usdc.chainMinor - outside).toBe(usdc.booksMinor);
  // The operator's own tokens put at the cold address change nothing, whatever came back from it
  // before (decision 0025): what came back is counted in the hot wallet, not again at the cold address.
  await mined(server, await faucet(server, { address: cold.address, amount: 1, currency: 'USDC' }));
  const topped = (await checkCustody(server.deps)).find((r) => r.token === 'USDC')!;
  expect(topped.chainMinor - outside).toBe(topped.booksMinor);
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
}

it('no affordable withdrawal is refused or reverted, each is sent once, and custody equals the chain, whatever the hot wallet holds', async () => {
  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), run), { numRuns: 10 });
}, 240_000);
