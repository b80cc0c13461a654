// Sweeps against a running server and its embedded chain, jobs off so that each test runs the
// rounds itself: a deposit address's whole balance moves to the hot wallet by an EIP-3009
// authorization relayed through the outbox; one sweep covers several deposits; one sweep per
// (address, token) in flight; deposits credited after their sweep are marked by it; a reverted or
// refused sweep is retried with a fresh authorization nonce; the ledger never changes on a sweep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { findOutboxEntry } from '../../src/stablecoin/outbox/hot-wallet-outbox.js';
import { runSweeps } from '../../src/stablecoin/sweeps/sweep-service.js';
import { insertOpenSweep } from '../../src/stablecoin/sweeps/sweeps-repository.js';
import { randomAuthorizationNonce } from '../../src/adapters/chain/transfer-authorization.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import {
  accountIdByHandle,
  chainClients,
  custodyOf,
  drainDeposits,
  faucet,
  ledgerBalance,
  mined,
  onChainBalance,
} from '../helpers/stablecoin-chain.js';

let server: TestServer;
let hotWallet: string;

beforeAll(async () => {
  server = await startTestServer();
  hotWallet = server.deps.wallets.hotWallet.address;
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function newUser(): Promise<{ user: TestUser; id: number }> {
  const user = await registerUser(server);
  return { user, id: await accountIdByHandle(server, user) };
}

/** Sweep and outbox rounds until no sweep is open (at most 20). */
async function settleSweeps(): Promise<void> {
  for (let round = 0; round < 20; round++) {
    await server.deps.hotWalletOutbox.reconcile(50);
    await runSweeps(server.deps, 20);
    const open = await server.deps.db.selectFrom('chain_sweeps').select('id').where('status', '=', 'open').execute();
    const unswept = await server.deps.db.selectFrom('chain_deposits').select('id').where('swept_at', 'is', null).execute();
    if (open.length === 0 && unswept.length === 0) return;
  }
  throw new Error('sweeps did not settle in 20 rounds');
}

async function ledgerRows(): Promise<string> {
  const rows = await sql<{
    n: string;
    total: string | null;
  }>`select count(*)::text as n, sum(amount)::text as total from ledger_transfers`.execute(server.deps.db);
  return JSON.stringify(rows.rows);
}

async function sweepsOf(accountId: number) {
  return server.deps.db.selectFrom('chain_sweeps').selectAll().where('account_id', '=', accountId).orderBy('created_at').execute();
}

describe('sweeping deposits', () => {
  it('moves several deposits in one sweep to the hot wallet, relayed by it, with no ledger change', async () => {
    const { user, id } = await newUser();
    for (const amount of [10, 20.5, 0.000001])
      await mined(server, await faucet(server, { address: user.depositAddress, amount, currency: 'USDC' }));
    expect(await drainDeposits(server)).toBe(3);
    const total = 30_500_001n;
    expect(await ledgerBalance(server, id, 'USDC')).toBe(total);
    const hotBefore = await onChainBalance(server, 'USDC', hotWallet);
    const booksBefore = await ledgerRows();

    await settleSweeps();

    const sweeps = await sweepsOf(id);
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]).toMatchObject({ status: 'confirmed', amount: total, token: 'USDC', address: user.depositAddress });
    expect(await onChainBalance(server, 'USDC', user.depositAddress)).toBe(0n);
    expect(await onChainBalance(server, 'USDC', hotWallet)).toBe(hotBefore + total);
    // The hot wallet sent the relay; the deposit address never had gas.
    const { publicClient } = chainClients(server);
    const tx = await publicClient.getTransaction({ hash: sweeps[0]!.tx_hash as `0x${string}` });
    expect(tx.from.toLowerCase()).toBe(hotWallet.toLowerCase());
    expect(await publicClient.getBalance({ address: user.depositAddress as `0x${string}` })).toBe(0n);
    expect(await findOutboxEntry(server.deps.db, { purpose: 'sweep', referenceId: sweeps[0]!.id })).toMatchObject({ status: 'confirmed' });
    const deposits = await server.deps.db
      .selectFrom('chain_deposits')
      .select(['sweep_id', 'swept_at'])
      .where('account_id', '=', id)
      .execute();
    expect(deposits.every((d) => d.sweep_id === sweeps[0]!.id && d.swept_at !== null)).toBe(true);
    // Custody is custody: the books are exactly as before the sweep.
    expect(await ledgerRows()).toBe(booksBefore);
    expect(await ledgerBalance(server, id, 'USDC')).toBe(total);
  });

  it('keeps one sweep in flight per address and token, and sweeps what arrived meanwhile afterwards', async () => {
    const { user, id } = await newUser();
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 5, currency: 'EURC' }));
    await drainDeposits(server);
    // Many rounds at once, none of which lets the outbox confirm anything: one sweep, one relay.
    await Promise.all(Array.from({ length: 6 }, () => runSweeps(server.deps, 20)));
    let sweeps = await sweepsOf(id);
    expect(sweeps).toHaveLength(1);
    const outbox = await server.deps.db.selectFrom('hot_wallet_outbox').select('id').where('reference_id', '=', sweeps[0]!.id).execute();
    expect(outbox).toHaveLength(1);
    // A second deposit while the first sweep is open: no second sweep yet.
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 7, currency: 'EURC' }));
    await drainDeposits(server);
    await runSweeps(server.deps, 20);
    expect(await sweepsOf(id)).toHaveLength(1);

    await settleSweeps();
    sweeps = await sweepsOf(id);
    expect(sweeps.map((s) => [s.status, s.amount])).toEqual([
      ['confirmed', 5_000_000n],
      ['confirmed', 7_000_000n],
    ]);
    const deposits = await server.deps.db
      .selectFrom('chain_deposits')
      .select(['amount', 'sweep_id'])
      .where('account_id', '=', id)
      .orderBy('block_number')
      .execute();
    expect(deposits.map((d) => d.sweep_id)).toEqual([sweeps[0]!.id, sweeps[1]!.id]);
    expect(await onChainBalance(server, 'EURC', user.depositAddress)).toBe(0n);
  });

  it('marks a deposit credited after the sweep that moved its tokens, without a second sweep', async () => {
    const { user, id } = await newUser();
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 1, currency: 'USDC' }));
    await drainDeposits(server);
    // Arrives, but the watcher has not run: the sweep's balance read includes it.
    const late = await faucet(server, { address: user.depositAddress, amount: 2, currency: 'USDC' });
    await mined(server, late);
    await runSweeps(server.deps, 20);
    // Outbox and sweep rounds until the relay is mined and the sweep confirmed: one outbox round
    // can come before the node has mined what was just broadcast (a loaded machine).
    await settleSweeps();
    const [sweep] = await sweepsOf(id);
    expect(sweep).toMatchObject({ status: 'confirmed', amount: 3_000_000n });
    expect(await onChainBalance(server, 'USDC', user.depositAddress)).toBe(0n);

    expect(await drainDeposits(server)).toBe(1);
    await runSweeps(server.deps, 20);
    const lateRow = await server.deps.db.selectFrom('chain_deposits').selectAll().where('tx_hash', '=', late).executeTakeFirstOrThrow();
    expect(lateRow.sweep_id).toBe(sweep!.id);
    expect(await sweepsOf(id)).toHaveLength(1);
    expect(await ledgerBalance(server, id, 'USDC')).toBe(3_000_000n);
  });

  it('retries a sweep that reverted on chain with a fresh authorization nonce', async () => {
    const { user, id } = await newUser();
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 40, currency: 'USDC' }));
    await drainDeposits(server);
    const hotBefore = await onChainBalance(server, 'USDC', hotWallet);
    const { testClient } = chainClients(server);
    // The relay is signed and sent while its authorization is valid, then mined two hours later,
    // after the authorization expired: it reverts on chain.
    await testClient.setAutomine(false);
    try {
      await runSweeps(server.deps, 20);
      await testClient.increaseTime({ seconds: 2 * 3600 });
      await testClient.mine({ blocks: 1 });
    } finally {
      await testClient.setAutomine(true);
    }
    await server.deps.hotWalletOutbox.reconcile(50);
    const [first] = await sweepsOf(id);
    expect(await findOutboxEntry(server.deps.db, { purpose: 'sweep', referenceId: first!.id })).toMatchObject({ status: 'reverted' });
    expect(await onChainBalance(server, 'USDC', user.depositAddress)).toBe(40_000_000n);

    await settleSweeps();
    const sweeps = await sweepsOf(id);
    expect(sweeps.map((s) => s.status)).toEqual(['reverted', 'confirmed']);
    expect(sweeps[1]!.auth_nonce).not.toBe(sweeps[0]!.auth_nonce);
    expect(await onChainBalance(server, 'USDC', user.depositAddress)).toBe(0n);
    expect(await onChainBalance(server, 'USDC', hotWallet)).toBe(hotBefore + 40_000_000n);
  });

  it('ends a sweep whose authorization expired before it was relayed, sending nothing, and starts a fresh one', async () => {
    const { user, id } = await newUser();
    await mined(server, await faucet(server, { address: user.depositAddress, amount: 3, currency: 'EURC' }));
    await drainDeposits(server);
    const head = await server.deps.chain.chain.getBlockNumber();
    // A sweep recorded long ago (say, before a long outage) and never handed to the outbox.
    const stale = await insertOpenSweep(server.deps.db, {
      id: 'swp_stale_test',
      accountId: id,
      address: user.depositAddress as `0x${string}`,
      token: 'EURC',
      amountMinor: 3_000_000n,
      coversThroughBlock: head,
      authNonce: randomAuthorizationNonce(),
      validBefore: 1n,
      createdAt: new Date(),
    });
    expect(stale).not.toBeNull();
    await runSweeps(server.deps, 20);
    const sweeps = await sweepsOf(id);
    expect(sweeps[0]).toMatchObject({ id: 'swp_stale_test', status: 'failed' });
    expect(sweeps[0]!.failure).toMatch(/AuthorizationExpired/);
    expect(await findOutboxEntry(server.deps.db, { purpose: 'sweep', referenceId: 'swp_stale_test' })).toBeUndefined();
    await settleSweeps();
    expect((await sweepsOf(id)).map((s) => s.status)).toEqual(['failed', 'confirmed']);
    expect(await onChainBalance(server, 'EURC', user.depositAddress)).toBe(0n);
  });
});

describe('custody', () => {
  it('books exactly the tokens at deposit addresses and the hot wallet once everything is credited', async () => {
    await drainDeposits(server);
    await settleSweeps();
    for (const token of ['USDC', 'EURC'] as const) {
      // The hot wallet held no tokens of its own in this file.
      const custody = await custodyOf(server, token, 0n);
      expect(custody.booked).toBeGreaterThan(0n);
      expect(custody.onChain).toBe(custody.booked);
      expect(await onChainBalance(server, token, hotWallet)).toBe(custody.booked);
    }
  });
});
