// Deposits with WALLET_PROVIDER=circle (DESIGN §19): POST /webhooks/circle and the reconciliation
// poll against a small Circle (test/helpers/circle-deposits.ts) whose inbound transactions are real
// transfers on the embedded chain. Refusals change nothing and never answer 500; each Circle
// transaction is credited once, when COMPLETE, whatever the repetition, order or loss of its
// notifications and however the poll overlaps them; transfers that are not users' deposits are
// ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createWalletClient, erc20Abi, getAddress, http, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import type { CircleTransaction } from '../../src/adapters/circle/circle-port.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { accountIdByHandle, chainClients, faucet, ledgerBalance, mined } from '../helpers/stablecoin-chain.js';
import { createTestCircle, inboundOf, notify, signedNotification, type TestCircle } from '../helpers/circle-deposits.js';

let server: TestServer;
let circle: TestCircle;
let alice: TestUser;
let aliceId: number;
let aliceWallet: string;

beforeAll(async () => {
  circle = createTestCircle();
  let treasury: Address | null = null;
  server = await startTestServer(
    {},
    { circleDeposits: { api: circle.api, verifier: circle.verifier, treasuryAddress: async () => treasury } },
  );
  treasury = server.deps.wallets.hotWallet.address;
  alice = await registerUser(server);
  aliceId = await accountIdByHandle(server, alice);
  aliceWallet = (await server.deps.db.selectFrom('accounts').select('wallet_id').where('id', '=', aliceId).executeTakeFirstOrThrow())
    .wallet_id!;
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

/** A transfer of `amount` USDC to alice's wallet, mined, as Circle lists it (COMPLETE unless told). */
async function aliceInbound(amount: number, state: CircleTransaction['state'] = 'COMPLETE'): Promise<CircleTransaction> {
  const txHash = await faucet(server, { address: alice.depositAddress, amount, currency: 'USDC' });
  await mined(server, txHash);
  return inboundOf(server, { txHash, to: alice.depositAddress, walletId: aliceWallet, token: 'USDC', state });
}

async function depositsOf(circleId: string) {
  return server.deps.db.selectFrom('chain_deposits').selectAll().where('circle_transaction_id', '=', circleId).execute();
}

async function books() {
  const rows = await server.deps.db
    .selectFrom('chain_deposits')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const events = await server.deps.db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { deposits: Number(rows.n), events: Number(events.n), alice: await ledgerBalance(server, aliceId, 'USDC') };
}

const circleCredits = () => server.deps.circle.circleDepositPoll!.poll();

/** Poll rounds until a pass reaches the end of Circle's list. */
async function pollToEnd(): Promise<number> {
  let credited = 0;
  for (let round = 0; round < 20; round++) {
    const result = await circleCredits();
    credited += result.credited;
    if (result.passEnded) return credited;
  }
  throw new Error('the poll did not reach the end of the list in 20 rounds');
}

describe('POST /webhooks/circle refusals', () => {
  it('answers 400 and changes nothing for a bad or missing signature, an unknown key, a body that is no notification; 413 for a huge body', async () => {
    const tx = await aliceInbound(3);
    const before = await books();
    const good = signedNotification(tx);
    const otherSigned = signedNotification(tx).headers['x-circle-signature']!;
    const malformed = signedNotification(null);
    const cases: { rawBody: string; headers: Record<string, string>; status: number }[] = [
      // Another body's signature.
      { rawBody: good.body, headers: { ...good.headers, 'x-circle-signature': otherSigned }, status: 400 },
      { rawBody: good.body, headers: { ...good.headers, 'x-circle-signature': 'bm90IGEgc2lnbmF0dXJl' }, status: 400 },
      { rawBody: good.body, headers: { 'content-type': 'application/json', 'x-circle-key-id': circle.keyId }, status: 400 },
      { rawBody: good.body, headers: { 'content-type': 'application/json' }, status: 400 },
      { rawBody: good.body, headers: { ...good.headers, 'x-circle-key-id': randomUUID() }, status: 400 },
      // The signed bytes altered after signing.
      { rawBody: good.body.replace('"COMPLETE"', '"COMPLETE" '), headers: good.headers, status: 400 },
      { rawBody: '{"notificationId":', headers: { ...malformed.headers }, status: 400 },
      { rawBody: '', headers: good.headers, status: 400 },
      { rawBody: 'x'.repeat(300 * 1024), headers: good.headers, status: 413 },
    ];
    for (const c of cases) {
      const response = await server.request('POST', '/webhooks/circle', { rawBody: c.rawBody, headers: c.headers });
      expect(response.status, c.rawBody.slice(0, 40)).toBe(c.status);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
    expect(await books()).toEqual(before);
    // The same notification, well signed, credits.
    expect((await server.request('POST', '/webhooks/circle', { rawBody: good.body, headers: good.headers })).status).toBe(200);
    expect(await depositsOf(tx.id)).toHaveLength(1);
  });
});

describe('crediting from notifications', () => {
  it('credits a COMPLETE inbound transaction once, with its log, block and event; a duplicate answers 200 and changes nothing', async () => {
    const tx = await aliceInbound(10);
    const before = await books();
    expect((await notify(server, tx)).status).toBe(200);
    const rows = await depositsOf(tx.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account_id: aliceId, token: 'USDC', amount: 10_000_000n, status: 'credited', tx_hash: tx.txHash });
    expect(rows[0]!.block_number).toBe(tx.blockHeight);
    expect(rows[0]!.swept_at).toBeNull();
    const after = await books();
    expect(after).toEqual({ deposits: before.deposits + 1, events: before.events + 1, alice: before.alice + 10_000_000n });
    const event = await server.deps.db.selectFrom('events').selectAll().where('subject_id', '=', rows[0]!.id).execute();
    expect(event.map((e) => e.type)).toEqual(['deposit.credited']);
    for (let i = 0; i < 3; i++) expect((await notify(server, tx)).status).toBe(200);
    expect(await books()).toEqual(after);
  });

  it('credits nothing before COMPLETE, and a state that arrives after COMPLETE neither un-credits nor credits again', async () => {
    const tx = await aliceInbound(2, 'CONFIRMED');
    const before = await books();
    expect((await notify(server, tx)).status).toBe(200);
    expect(await books()).toEqual(before);
    expect((await notify(server, { ...tx, state: 'COMPLETE' })).status).toBe(200);
    const credited = await books();
    expect(credited.alice).toBe(before.alice + 2_000_000n);
    for (const state of ['CONFIRMED', 'SENT', 'FAILED', 'COMPLETE'] as const)
      expect((await notify(server, { ...tx, state })).status).toBe(200);
    expect(await books()).toEqual(credited);
  });

  it('credits one of two deliveries that arrive at once', async () => {
    const tx = await aliceInbound(4);
    const before = await books();
    const answers = await Promise.all([notify(server, tx), notify(server, tx), notify(server, tx)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await depositsOf(tx.id)).toHaveLength(1);
    expect((await books()).alice).toBe(before.alice + 4_000_000n);
  });

  it('acknowledges other notification types and ignores what is not a user deposit', async () => {
    const tx = await aliceInbound(5);
    const before = await books();
    expect((await notify(server, null, 'webhooks.test')).status).toBe(200);
    expect((await notify(server, { ...tx, transactionType: 'OUTBOUND' }, 'transactions.outbound')).status).toBe(200);
    // Another wallet (the treasury's, another wallet set's): not in peerpay's accounts.
    expect((await notify(server, { ...tx, id: randomUUID(), walletId: randomUUID() })).status).toBe(200);
    // From the treasury: peerpay's own money moving.
    const fromTreasury = { ...tx, id: randomUUID(), sourceAddress: getAddress(server.deps.wallets.hotWallet.address) };
    expect((await notify(server, fromTreasury)).status).toBe(200);
    // Another token.
    expect((await notify(server, { ...tx, id: randomUUID(), tokenAddress: getAddress(`0x${'12'.repeat(20)}`) })).status).toBe(200);
    // A log the chain does not have (another amount): not credited on Circle's word alone.
    expect((await notify(server, { ...tx, id: randomUUID(), amount: tx.amount + 1n })).status).toBe(200);
    expect(await books()).toEqual(before);
  });
});

describe('a deposit from a listed sender', () => {
  it('is recorded blocked, credited to nobody, the account frozen, once', async () => {
    const bob = await registerUser(server);
    const bobId = await accountIdByHandle(server, bob);
    const bobWallet = (await server.deps.db.selectFrom('accounts').select('wallet_id').where('id', '=', bobId).executeTakeFirstOrThrow())
      .wallet_id!;
    const sender = privateKeyToAccount(generatePrivateKey());
    const listed = await server.request('POST', '/test-helpers/sanctions', { body: { address: sender.address, sanctioned: true } });
    expect(listed.status).toBe(200);
    const { rpcUrl, chainId, tokens } = server.deps.chain;
    await chainClients(server).testClient.setBalance({ address: sender.address, value: 10n ** 18n });
    await mined(server, await faucet(server, { address: sender.address, amount: 3, currency: 'USDC' }));
    const wallet = createWalletClient({ account: sender, chain: chainFor({ chainId, rpcUrl }), transport: http(rpcUrl) });
    const txHash = await wallet.writeContract({
      address: tokens.USDC,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [getAddress(bob.depositAddress), 3_000_000n],
    });
    await mined(server, txHash);
    const tx = await inboundOf(server, { txHash, to: bob.depositAddress, walletId: bobWallet, token: 'USDC' });
    expect((await notify(server, tx)).status).toBe(200);
    expect((await notify(server, tx)).status).toBe(200);
    const rows = await depositsOf(tx.id);
    expect(rows.map((r) => r.status)).toEqual(['blocked']);
    expect(await ledgerBalance(server, bobId, 'USDC')).toBe(0n);
    const account = await server.deps.db.selectFrom('accounts').select('frozen_scope').where('id', '=', bobId).executeTakeFirstOrThrow();
    expect(account.frozen_scope).toBe('all');
  });
});

describe('the reconciliation poll', () => {
  it('credits what no notification brought, once, page by page, and again nothing when notifications come late', async () => {
    await pollToEnd();
    const lost = [await aliceInbound(1), await aliceInbound(1.5), await aliceInbound(2.25), await aliceInbound(3.5)];
    for (const tx of lost) circle.put(tx);
    const before = await books();
    expect(await pollToEnd()).toBe(4);
    for (const tx of lost) expect(await depositsOf(tx.id)).toHaveLength(1);
    const after = await books();
    expect(after.alice).toBe(before.alice + 8_250_000n);
    // The notifications arrive late, and the poll reads its overlap again: nothing changes.
    for (const tx of lost) expect((await notify(server, tx)).status).toBe(200);
    expect(await pollToEnd()).toBe(0);
    expect(await books()).toEqual(after);
  });

  it('keeps its place for a transaction under way and credits it once it is COMPLETE', async () => {
    const txHash = await faucet(server, { address: alice.depositAddress, amount: 7, currency: 'USDC' });
    await mined(server, txHash);
    const pending = await inboundOf(server, { txHash, to: alice.depositAddress, walletId: aliceWallet, token: 'USDC', state: 'CONFIRMED' });
    circle.put(pending);
    // A later transaction moves the newest past it by more than the overlap.
    const laterHash = await faucet(server, { address: alice.depositAddress, amount: 0.5, currency: 'USDC' });
    await mined(server, laterHash);
    const later = new Date(pending.createDate.getTime() + 10 * 60_000);
    circle.put(
      await inboundOf(server, { txHash: laterHash, to: alice.depositAddress, walletId: aliceWallet, token: 'USDC', createDate: later }),
    );
    await pollToEnd();
    await pollToEnd();
    expect(await depositsOf(pending.id)).toHaveLength(0);
    circle.put({ ...pending, state: 'COMPLETE' });
    await pollToEnd();
    expect(await depositsOf(pending.id)).toHaveLength(1);
  });

  it('runs one round at a time across processes: a lease another holds skips the round, one run out (its holder died) is taken', async () => {
    await pollToEnd();
    const lease = (until: Date) => server.deps.db.updateTable('circle_inbound_cursor').set({ leased_until: until }).execute();
    await lease(new Date(Date.now() + 3_600_000));
    const held = await circleCredits();
    expect(held).toMatchObject({ skipped: true, pages: 0 });
    await lease(new Date(Date.now() - 1_000));
    expect(await circleCredits()).toMatchObject({ skipped: false });
    const row = await server.deps.db.selectFrom('circle_inbound_cursor').select('leased_until').executeTakeFirstOrThrow();
    expect(row.leased_until).toBeNull();
  });

  it('credits once when a notification and poll rounds run at once', async () => {
    const tx = await aliceInbound(6);
    circle.put(tx);
    const before = await books();
    await Promise.all([notify(server, tx), circleCredits(), notify(server, tx), circleCredits()]);
    await pollToEnd();
    expect(await depositsOf(tx.id)).toHaveLength(1);
    expect((await books()).alice).toBe(before.alice + 6_000_000n);
  });
});
