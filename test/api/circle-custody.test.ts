// WALLET_PROVIDER=circle's custody side (DESIGN §19) against the Circle stand-in, which executes
// every transfer for real on the embedded chain: registration makes a Circle wallet (and a failed
// Circle call is healed by registering again, with the same wallet); sweeps, withdrawals and cold
// transfers are Circle transfers keyed by their outbox entries; a FAILED withdrawal is refunded; a
// lost answer or a crash before the call is resolved by asking again with the same key, never a
// second transfer; the custody check counts Circle's balances and the chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, type Address } from 'viem';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { walletIdempotencyKey } from '../../src/stablecoin/custody/circle-wallets.js';
import { registerUser, TEST_MASTER_SEED, type TestUser } from '../helpers/test-server.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { checkInstallationIdentity } from '../../src/startup/installation-identity.js';
import { accountIdByHandle, faucet, ledgerBalance, mined } from '../helpers/stablecoin-chain.js';
import { freshAddress, fundHotWallet, onChainBalance, withdraw } from '../helpers/withdrawals.js';
import { fund } from '../helpers/stablecoin.js';
import { checkCustody } from '../../src/books/custody-check.js';
import { settleAtCircle, startCircleServer, type CircleServer } from '../helpers/circle-custody.js';

const COLD = getAddress('0x00000000000000000000000000000000c01dc01d');
let cs: CircleServer;
let alice: TestUser;
let aliceId: number;

beforeAll(async () => {
  cs = await startCircleServer({ HOT_WALLET_MAX_USDC: '1000', COLD_WALLET_ADDRESS: COLD });
  alice = await registerUser(cs.server);
  aliceId = await accountIdByHandle(cs.server, alice);
});

afterAll(async () => {
  if (cs) expect(await checkLedgerInvariants(cs.server.deps.db)).toEqual([]);
  await cs?.close();
});

const wallets = () => cs.circle.wallets() as { id: string; address: string; refId: string }[];
const outbound = (refId: string) =>
  (cs.circle.transactions() as { transactionType: string; refId: string; txHash: string | null; state: string }[]).filter(
    (tx) => tx.transactionType === 'OUTBOUND' && tx.refId === refId,
  );
const treasury = () => cs.server.deps.wallets.hotWallet.address;

/** Deposits `amount` USDC to the user's Circle wallet on chain and credits it through the reconciliation poll. */
async function deposit(user: TestUser, amount: number): Promise<void> {
  await mined(cs.server, await faucet(cs.server, { address: user.depositAddress, amount, currency: 'USDC' }));
  await cs.circle.sync();
  await cs.server.deps.circle.circleDepositPoll!.poll();
}

describe('WALLET_PROVIDER=circle', () => {
  it('makes the wallet set and the treasury wallet once, and a Circle wallet per registration', async () => {
    const row = await cs.server.deps.db.selectFrom('circle_custody').selectAll().executeTakeFirstOrThrow();
    const made = wallets();
    expect(made.filter((w) => w.refId === 'treasury')).toEqual([expect.objectContaining({ id: row.treasury_wallet_id })]);
    expect(getAddress(row.treasury_address!)).toBe(treasury());
    const mine = made.filter((w) => w.refId === String(aliceId));
    expect(mine).toHaveLength(1);
    expect(getAddress(mine[0]!.address)).toBe(getAddress(alice.depositAddress));
    const account = await cs.server.deps.db.selectFrom('accounts').select('wallet_id').where('id', '=', aliceId).executeTakeFirstOrThrow();
    expect(account.wallet_id).toBe(mine[0]!.id);
    const keys = cs.circle
      .requests()
      .filter(
        (r) =>
          r.path === '/v1/w3s/developer/wallets' &&
          (r.body as { metadata?: { refId?: string }[] } | undefined)?.metadata?.[0]?.refId === String(aliceId),
      );
    expect(new Set(keys.map((r) => r.idempotencyKey))).toEqual(new Set([walletIdempotencyKey(row.wallet_set_id!, String(aliceId))]));
  });

  it('refuses to start this database with WALLET_PROVIDER=self', async () => {
    const { db, chain } = cs.server.deps;
    const seed = createHdWalletProvider(Buffer.from(TEST_MASTER_SEED.slice(2), 'hex'));
    await expect(checkInstallationIdentity({ db, chain, wallets: seed })).rejects.toThrow(
      "WALLET_PROVIDER=self, but this database's wallets are Circle's (it was set up with WALLET_PROVIDER=circle): start it with WALLET_PROVIDER=circle",
    );
  });

  it('answers 503 when Circle does not make the wallet, and registering again makes it, once', async () => {
    const email = `circle-down-${Date.now()}@example.com`;
    const body = { email, password: 'correct horse battery', name: 'Grace Hopper' };
    cs.circle.faults.failNext({ method: 'POST', path: '/v1/w3s/developer/wallets', fault: 503, count: 3 });
    const refused = await cs.server.request('POST', '/agent/register', { body });
    expect(refused.status).toBe(503);
    expect(refused.body.code).toBe('service_unavailable');
    const again = await cs.server.request('POST', '/agent/register', { body });
    expect(again.status).toBe(200);
    const id = (await cs.server.deps.db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const theirs = wallets().filter((w) => w.refId === String(id));
    expect(theirs).toHaveLength(1);
    expect(getAddress(again.body.depositAddress)).toBe(getAddress(theirs[0]!.address));
  });

  it('sweeps a credited deposit to the treasury wallet as one Circle transfer, with no ledger change', async () => {
    const before = await onChainBalance(cs.server, treasury());
    await deposit(alice, 40);
    expect(await ledgerBalance(cs.server, aliceId, 'USDC')).toBe(40_000_000n);
    await cs.server.deps.depositSweeps.run(10);
    const sweep = await cs.server.deps.db
      .selectFrom('chain_sweeps')
      .selectAll()
      .where('account_id', '=', aliceId)
      .executeTakeFirstOrThrow();
    await settleAtCircle(cs);
    await cs.server.deps.depositSweeps.run(10);
    const done = await cs.server.deps.db.selectFrom('chain_sweeps').selectAll().where('id', '=', sweep.id).executeTakeFirstOrThrow();
    expect(done.status).toBe('confirmed');
    expect(outbound(`sweep:${sweep.id}`)).toEqual([expect.objectContaining({ state: 'COMPLETE', txHash: done.tx_hash })]);
    expect(await onChainBalance(cs.server, treasury())).toBe(before + 40_000_000n);
    expect(await onChainBalance(cs.server, alice.depositAddress)).toBe(0n);
    expect(await ledgerBalance(cs.server, aliceId, 'USDC')).toBe(40_000_000n);
  });

  it('sends a withdrawal from the treasury wallet and completes it with the hash Circle reports', async () => {
    const to = freshAddress();
    const sent = await withdraw(cs.server, alice, { amount: 5, currency: 'USDC', address: to });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'pending', txId: null });
    await settleAtCircle(cs);
    await cs.server.deps.stablecoinWithdrawals.process(10);
    const w = await cs.server.deps.db
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', sent.body.withdrawalId)
      .executeTakeFirstOrThrow();
    expect(w.status).toBe('complete');
    expect(await onChainBalance(cs.server, to)).toBe(w.net);
    expect(outbound(`withdrawal:${w.id}`)).toEqual([expect.objectContaining({ state: 'COMPLETE', txHash: w.tx_hash })]);
  });

  it('refunds the gross of a withdrawal Circle ends FAILED', async () => {
    const balance = await ledgerBalance(cs.server, aliceId, 'USDC');
    const held = await onChainBalance(cs.server, treasury());
    // Circle queues a transfer of everything the treasury holds first: the withdrawal then finds it empty.
    const deps = cs.server.deps;
    if (deps.wallets.provider !== 'circle') throw new Error('circle');
    await deps.wallets.circle.api.createTransfer({
      walletId: deps.wallets.circle.treasuryWalletId,
      tokenAddress: deps.chain.tokens.USDC,
      destinationAddress: alice.depositAddress as Address,
      amount: held,
      refId: 'test:drain',
      idempotencyKey: crypto.randomUUID(),
    });
    const sent = await withdraw(cs.server, alice, { amount: 2, currency: 'USDC', address: freshAddress() });
    expect(sent.status).toBe(200);
    await settleAtCircle(cs);
    await deps.stablecoinWithdrawals.process(10);
    const w = await deps.db.selectFrom('withdrawals').selectAll().where('id', '=', sent.body.withdrawalId).executeTakeFirstOrThrow();
    expect(w).toMatchObject({ status: 'failed', failure_code: 'reverted' });
    expect(outbound(`withdrawal:${w.id}`)).toEqual([expect.objectContaining({ state: 'FAILED' })]);
    expect(await ledgerBalance(cs.server, aliceId, 'USDC')).toBe(balance);
  });

  it('sends once when every answer to the transfer is lost: the job asks again with the same key', async () => {
    const to = freshAddress();
    const path = '/v1/w3s/developer/transactions/transfer';
    // The client tries three times (retries included); Circle makes the transfer at the first and every answer is lost.
    cs.circle.faults.failNext({ method: 'POST', path, fault: 'lost', count: 3 });
    await fundHotWallet(cs.server, 10_000_000n);
    const sent = await withdraw(cs.server, alice, { amount: 3, currency: 'USDC', address: to });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('pending');
    const entry = await outboxEntry('withdrawal', sent.body.withdrawalId);
    expect(entry).toMatchObject({ provider: 'circle', status: 'signed', circle_transaction_id: null });
    await settleAtCircle(cs);
    await cs.server.deps.stablecoinWithdrawals.process(10);
    const w = await cs.server.deps.db
      .selectFrom('withdrawals')
      .selectAll()
      .where('id', '=', sent.body.withdrawalId)
      .executeTakeFirstOrThrow();
    expect(w.status).toBe('complete');
    expect(outbound(`withdrawal:${w.id}`)).toHaveLength(1);
    expect(await onChainBalance(cs.server, to)).toBe(w.net);
    const asked = cs.circle.requests().filter((r) => r.path === path && r.idempotencyKey === entry.id);
    expect(asked.length).toBeGreaterThanOrEqual(4);
    expect(asked.some((r) => r.replayed)).toBe(true);
  });

  it('moves the excess over the ceiling to the cold address once, also when Circle was never reached before a restart', async () => {
    const path = '/v1/w3s/developer/transactions/transfer';
    await fundHotWallet(cs.server, 1_500_000_000n);
    // Nothing reaches Circle (as after a crash between the commit and the call): the entry stays recorded, unsent.
    cs.circle.faults.failNext({ method: 'POST', path, fault: 503, count: 3 });
    expect(await cs.server.deps.treasury.runColdTransfers()).toBe(1);
    const cold = await cs.server.deps.db.selectFrom('cold_transfers').selectAll().where('status', '=', 'open').executeTakeFirstOrThrow();
    expect(await outboxEntry('cold', cold.id)).toMatchObject({ status: 'signed', circle_transaction_id: null });
    expect(outbound(`cold:${cold.id}`)).toHaveLength(0);
    await settleAtCircle(cs);
    await cs.server.deps.treasury.runColdTransfers();
    const ended = await cs.server.deps.db.selectFrom('cold_transfers').selectAll().where('id', '=', cold.id).executeTakeFirstOrThrow();
    expect(ended.status).toBe('confirmed');
    expect(outbound(`cold:${cold.id}`)).toEqual([expect.objectContaining({ state: 'COMPLETE' })]);
    expect(await onChainBalance(cs.server, COLD)).toBe(cold.amount);
    expect(await onChainBalance(cs.server, treasury())).toBe(1_000_000_000n);
  });

  it("checks custody against Circle's balances and the chain at once", async () => {
    const deps = cs.server.deps;
    const ok = await checkCustody(deps);
    expect(ok.every((r) => r.ok)).toBe(true);
    expect(cs.circle.requests().some((r) => r.path.endsWith('/balances'))).toBe(true);
    const wallet = (await deps.db.selectFrom('accounts').select('wallet_id').where('id', '=', aliceId).executeTakeFirstOrThrow())
      .wallet_id!;
    const read = cs.circle
      .requests()
      .filter((r) => r.path.endsWith('/balances'))
      .map((r) => r.path);
    expect(read).toEqual(
      expect.arrayContaining([
        expect.stringContaining(wallet),
        expect.stringContaining(deps.wallets.provider === 'circle' ? deps.wallets.circle.treasuryWalletId : '-'),
      ]),
    );
    // The books promise alice one minor unit more than the wallets hold beyond them: a shortfall of exactly that.
    const before = ok.find((r) => r.token === 'USDC')!;
    await fund(cs.server, alice, before.chainMinor - before.booksMinor + 1n);
    const usdc = (await checkCustody(deps)).find((r) => r.token === 'USDC')!;
    expect(usdc.ok).toBe(false);
    expect(usdc.booksMinor - usdc.chainMinor).toBe(1n);
  });
});

async function outboxEntry(purpose: string, referenceId: string) {
  return cs.server.deps.db
    .selectFrom('hot_wallet_outbox')
    .selectAll()
    .where('purpose', '=', purpose as 'withdrawal')
    .where('reference_id', '=', referenceId)
    .executeTakeFirstOrThrow();
}
