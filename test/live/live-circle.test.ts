// Live mode with WALLET_PROVIDER=circle (DESIGN §19): the stablecoin rail of live-stablecoin.test.ts
// again, with Circle's developer-controlled wallets (the repository's stand-in, executing every
// transaction on the live chain) holding the users' and the treasury's keys. Registration makes a
// Circle wallet; a deposit is credited once from its notification and once from the reconciliation
// poll when the notification is lost; a transfer, a withdrawal that reaches the chain, a sweep, a
// cold transfer, a funding link and an x402 payment; the custody check holds; the ledger balances.
// The stand-in moves only when the test says so (`circle.sync()`), so no step waits on a timer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { checkCustody } from '../../src/books/custody-check.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import type { CircleStandIn } from '../fakes/circle/index.js';
import { linkPath } from '../helpers/fiat.js';
import { liveModeAvailable, LIVE_MODE_NEEDS, LIVE_PUBLIC_URL, startLiveWorld, type LiveWorld } from '../helpers/live-mode.js';
import { LOOKUP_PRICE, v1Fetch } from '../helpers/nano.js';
import { runsIf } from '../helpers/runs-if.js';
import { chainClients } from '../helpers/stablecoin-chain.js';
import { registerUser, type TestUser } from '../helpers/test-server.js';

const LIVE = runsIf(liveModeAvailable(), LIVE_MODE_NEEDS);
const COLD = privateKeyToAccount(generatePrivateKey()).address;

describe.runIf(LIVE)('live mode with Circle holding the wallets', () => {
  let world: LiveWorld;
  let circle: CircleStandIn;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld({
      walletProvider: 'circle',
      // Above 30 USDC the treasury sends the excess to cold storage.
      env: { COLD_WALLET_ADDRESS: COLD, HOT_WALLET_MAX_USDC: '30' },
    });
    circle = world.circle!;
    ada = await registerUser(world.server);
    bob = await registerUser(world.server);
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    await world.close();
  });

  /** Circle's work (sync: transactions executed, deposits seen, notifications sent), then peerpay's chain jobs, until `done`. */
  async function roundsUntil(what: string, done: () => Promise<boolean>): Promise<void> {
    for (let round = 0; round < 30; round++) {
      await circle.sync();
      await circle.notificationsIdle();
      if (await done()) return;
      await runJobsOnce(
        world.server.deps,
        undefined,
        world.server.deps.jobs.filter((job) => job.chain),
      );
    }
    throw new Error(`never reached: ${what}`);
  }

  const balance = async (user: TestUser) => (await world.server.request('GET', '/stablecoin/balance', { key: user.key })).body;
  const onChain = (holder: Address, token: 'USDC' | 'EURC' = 'USDC') =>
    chainClients(world.server).publicClient.readContract({
      address: world.chain.tokens[token],
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder],
    });
  const treasury = () => circle.wallets().find((w: any) => w.refId === 'treasury') as { id: string; address: Address } | undefined;

  it("registration makes a Circle wallet: stablecoinWalletId is Circle's wallet id, the deposit address its address", async () => {
    const account = await world.server.request('GET', '/account', { key: ada.key });
    expect(account.status, account.text).toBe(200);
    const wallet = circle.wallets().find((w: any) => w.id === account.body.stablecoinWalletId) as any;
    expect(wallet).toMatchObject({ address: ada.depositAddress, accountType: 'SCA', blockchain: 'MATIC', custodyType: 'DEVELOPER' });
    expect(account.body.depositAddress).toBe(ada.depositAddress);
    expect(treasury()).toBeDefined();
    expect(world.server.deps.wallets.hotWallet.address).toBe(treasury()!.address);
  });

  it('a funding link is a page at PUBLIC_URL with the Circle wallet as the deposit address', async () => {
    const session = await world.server.request('POST', '/stablecoin/buy-session', { key: ada.key, body: { amount: 25, currency: 'USDC' } });
    expect(session.status, session.text).toBe(200);
    expect(session.body.url.startsWith(`${LIVE_PUBLIC_URL}/links/funding/`)).toBe(true);
    const html = await (await fetch(world.server.url + linkPath(session.body.url))).text();
    expect(html).toContain(ada.depositAddress);
    expect(html).toContain('25 USDC');
  });

  it('a deposit is credited once from its notification (a duplicate changes nothing) and swept to the treasury', async () => {
    circle.faults.notifications('duplicate', 2);
    await world.chain.mint({ to: ada.depositAddress as Address, token: 'USDC', amountMinor: 40_000_000n });
    await circle.sync();
    await circle.notificationsIdle();
    // Credited by the notification alone, before any job ran.
    expect((await balance(ada)).USDC).toBe('40.000000');
    await roundsUntil('the deposit is swept', async () => (await onChain(ada.depositAddress as Address)) === 0n);
    expect((await balance(ada)).USDC).toBe('40.000000');
  });

  it('a deposit whose notifications are lost is credited once by the reconciliation poll', async () => {
    circle.faults.notifications('drop', 2);
    await world.chain.mint({ to: bob.depositAddress as Address, token: 'EURC', amountMinor: 5_000_000n });
    await circle.sync();
    await circle.notificationsIdle();
    expect((await balance(bob)).EURC).toBe('0.000000');
    await roundsUntil('the poll credits it', async () => (await balance(bob)).EURC === '5.000000');
    // Later rounds of the poll and a late copy of the notification change nothing.
    circle.faults.deliverLate();
    await roundsUntil('nothing more', async () => true);
    expect((await balance(bob)).EURC).toBe('5.000000');
  });

  it('a transfer between users moves the books only (the recipient gets 5 USDC less the 1.49% fee)', async () => {
    const before = circle.transactions().length;
    const sent = await world.server.request('POST', '/agent/transfer', {
      key: ada.key,
      body: { to: bob.handle, amount: 5, currency: 'USDC' },
    });
    expect(sent.status, sent.text).toBe(200);
    expect((await balance(bob)).USDC).toBe('4.925500');
    expect(circle.transactions()).toHaveLength(before);
  });

  it('a withdrawal is a Circle transfer from the treasury that reaches the chain', async () => {
    const destination = privateKeyToAccount(generatePrivateKey()).address;
    const withdrawal = await world.server.request('POST', '/stablecoin/withdraw', {
      key: ada.key,
      body: { amount: 10, currency: 'USDC', address: destination },
    });
    expect(withdrawal.status, withdrawal.text).toBe(200);
    await roundsUntil('the withdrawal is on chain', async () => (await onChain(destination)) > 0n);
    // 10 USDC less the 1.49% fee.
    expect(await onChain(destination)).toBe(9_851_000n);
    const sent = circle.transactions().find((tx: any) => tx.destinationAddress === destination) as any;
    expect(sent).toMatchObject({ walletId: treasury()!.id, transactionType: 'OUTBOUND', state: 'COMPLETE' });
  });

  it('the excess above the ceiling goes to cold storage as a Circle transfer', async () => {
    await roundsUntil('cold storage holds the excess', async () => (await onChain(COLD)) > 0n);
    expect(await onChain(treasury()!.address)).toBeLessThanOrEqual(30_000_000n);
  });

  it('an x402 payment settles to the treasury wallet', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    await world.chain.mint({ to: payer.address, token: 'USDC', amountMinor: 1_000_000n });
    const before = await onChain(treasury()!.address);
    const response = await v1Fetch(payer)(`${world.server.url}/nano/lookup?handle=${encodeURIComponent(bob.handle)}`);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await onChain(payer.address)).toBe(1_000_000n - LOOKUP_PRICE);
    expect(await onChain(treasury()!.address)).toBe(before + LOOKUP_PRICE);
  });

  it("the custody check holds against Circle's balances and the chain", async () => {
    await roundsUntil('everything settled', async () => true);
    const results = await checkCustody(world.server.deps);
    expect(results.map((r) => [r.token, r.ok])).toEqual([
      ['USDC', true],
      ['EURC', true],
    ]);
  });
});
