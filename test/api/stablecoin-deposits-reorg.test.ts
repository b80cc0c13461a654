// Reorganisations, made on the embedded chain with anvil's snapshot and revert: with three
// confirmations required, a deposit whose block is replaced before it had them is never credited;
// one replaced after it was credited (a reorganisation deeper than the window) halts the watcher
// loudly, every round, and credits nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { DeepReorgError, watchDeposits } from '../../src/stablecoin/deposits/deposit-watcher.js';
import { createDepositWatcherJob } from '../../src/jobs/deposit-watcher-job.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { accountIdByHandle, chainClients, drainDeposits, faucet, ledgerBalance, mined } from '../helpers/stablecoin-chain.js';

let server: TestServer;
let alice: TestUser;
let aliceId: number;

beforeAll(async () => {
  server = await startTestServer({ CHAIN_CONFIRMATIONS: '3' });
  alice = await registerUser(server);
  aliceId = await accountIdByHandle(server, alice);
  await drainDeposits(server);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function depositCount(): Promise<number> {
  return (await server.deps.db.selectFrom('chain_deposits').select('id').execute()).length;
}

describe('within the confirmation window', () => {
  it('waits for three confirmations before crediting', async () => {
    const { testClient } = chainClients(server);
    await mined(server, await faucet(server, { address: alice.depositAddress, amount: 5, currency: 'USDC' }));
    expect(await drainDeposits(server)).toBe(0);
    await testClient.mine({ blocks: 1 });
    expect(await drainDeposits(server)).toBe(0);
    await testClient.mine({ blocks: 1 });
    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(5_000_000n);
  });

  it('never credits a deposit whose block a reorganisation replaced before it was confirmed', async () => {
    const { testClient } = chainClients(server);
    const snapshot = await testClient.snapshot();
    const orphan = await faucet(server, { address: alice.depositAddress, amount: 50, currency: 'USDC' });
    await mined(server, orphan);
    await testClient.mine({ blocks: 1 });
    expect(await drainDeposits(server)).toBe(0); // two confirmations of three
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 5 });
    expect(await drainDeposits(server)).toBe(0);
    expect(await server.deps.db.selectFrom('chain_deposits').select('id').where('tx_hash', '=', orphan).execute()).toHaveLength(0);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(5_000_000n);
    // And reads on normally afterwards.
    await mined(server, await faucet(server, { address: alice.depositAddress, amount: 2, currency: 'USDC' }));
    await testClient.mine({ blocks: 2 });
    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(7_000_000n);
  });
});

describe('deeper than the window', () => {
  it('halts loudly, every round, and credits nothing twice', async () => {
    const { testClient } = chainClients(server);
    const snapshot = await testClient.snapshot();
    await mined(server, await faucet(server, { address: alice.depositAddress, amount: 30, currency: 'USDC' }));
    await testClient.mine({ blocks: 2 });
    expect(await drainDeposits(server)).toBe(1);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(37_000_000n);
    const deposits = await depositCount();

    // The credited block is replaced, and the deposit is made again in a later block: the new
    // chain holds 30 where the books say 60 arrived if both were credited.
    await testClient.revert({ id: snapshot });
    await testClient.mine({ blocks: 2 });
    await mined(server, await faucet(server, { address: alice.depositAddress, amount: 30, currency: 'USDC' }));
    await testClient.mine({ blocks: 4 });

    for (let round = 0; round < 3; round++) {
      await expect(watchDeposits(server.deps)).rejects.toThrow(DeepReorgError);
    }
    await expect(watchDeposits(server.deps)).rejects.toThrow(/DEPOSITS HALTED: block \d+/);
    expect(await depositCount()).toBe(deposits);
    expect(await ledgerBalance(server, aliceId, 'USDC')).toBe(37_000_000n);

    // The job runner logs it as an error each round.
    server.logs.length = 0;
    await runJobsOnce(server.deps, server.app.log, [createDepositWatcherJob({ deposits: server.deps.depositWatching })]);
    const errors = server.logs.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ job: 'deposit-watcher', err: { type: 'DeepReorgError' } });
    expect(errors[0].err.message).toContain('DEPOSITS HALTED');
  });
});
