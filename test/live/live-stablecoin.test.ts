// Live mode, the stablecoin rail on a separately started node standing in for Polygon (peerpay
// reaches it only through CHAIN_RPC_URL and cannot mint there): a funding link is a page with the
// deposit address and its QR code; tokens sent from outside are credited by the deposit watcher and
// swept to the hot wallet; a withdrawal reaches the chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, type Address } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { runJobsOnce } from '../../src/jobs/job-runner.js';
import { registerUser, type TestUser } from '../helpers/test-server.js';
import { linkPath } from '../helpers/fiat.js';
import { chainClients } from '../helpers/stablecoin-chain.js';
import { liveModeAvailable, LIVE_MODE_NEEDS, startLiveWorld, LIVE_PUBLIC_URL, type LiveWorld } from '../helpers/live-mode.js';
import { runsIf } from '../helpers/runs-if.js';

const LIVE = runsIf(liveModeAvailable(), LIVE_MODE_NEEDS);

describe.runIf(LIVE)('live mode: deposits, funding links and withdrawals on an external node', () => {
  let world: LiveWorld;
  let ada: TestUser;

  beforeAll(async () => {
    world = await startLiveWorld();
    ada = await registerUser(world.server);
  }, 120_000);

  afterAll(async () => {
    if (!world) return;
    expect(await checkLedgerInvariants(world.server.deps.db)).toEqual([]);
    await world.close();
  });

  /** Runs the chain jobs (watcher, sweeps, outbox, withdrawals) until `done` holds, at most 40 rounds. */
  async function chainRoundsUntil(what: string, done: () => Promise<boolean>): Promise<void> {
    for (let round = 0; round < 40; round++) {
      await runJobsOnce(
        world.server.deps,
        undefined,
        world.server.deps.jobs.filter((job) => job.chain),
      );
      if (await done()) return;
    }
    throw new Error(`chain jobs did not reach: ${what}`);
  }

  const usdc = async (user: TestUser) => (await world.server.request('GET', '/stablecoin/balance', { key: user.key })).body;

  it('a funding link is a page at PUBLIC_URL with the deposit address, a QR code, token, network, amount and expiry', async () => {
    const session = await world.server.request('POST', '/stablecoin/buy-session', { key: ada.key, body: { amount: 25, currency: 'USDC' } });
    expect(session.status, session.text).toBe(200);
    expect(session.body.url.startsWith(`${LIVE_PUBLIC_URL}/links/funding/`)).toBe(true);
    const page = await fetch(world.server.url + linkPath(session.body.url));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(ada.depositAddress);
    expect(html).toContain('<svg');
    expect(html).toContain('Polygon');
    expect(html).toContain('25 USDC');
    expect(html).toContain(world.chain.tokens.USDC);
    expect(html).not.toContain('<form');
    expect(html).not.toContain('sandbox');
  });

  it('tokens sent to the deposit address are credited once and swept; a withdrawal reaches the chain', async () => {
    await world.chain.mint({ to: ada.depositAddress as Address, token: 'USDC', amountMinor: 25_000_000n });
    await chainRoundsUntil('the deposit is credited and swept', async () => {
      const swept =
        (await chainClients(world.server).publicClient.readContract({
          address: world.chain.tokens.USDC,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [ada.depositAddress as Address],
        })) === 0n;
      return swept && (await usdc(ada)).USDC === '25.000000';
    });

    const destination = privateKeyToAccount(generatePrivateKey()).address;
    const withdrawal = await world.server.request('POST', '/stablecoin/withdraw', {
      key: ada.key,
      body: { amount: 10, currency: 'USDC', address: destination },
    });
    expect(withdrawal.status, withdrawal.text).toBe(200);
    const readDestination = () =>
      chainClients(world.server).publicClient.readContract({
        address: world.chain.tokens.USDC,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [destination],
      });
    await chainRoundsUntil('the withdrawal is on chain', async () => (await readDestination()) > 0n);
    // 10 USDC less the 1.49% fee.
    expect(await readDestination()).toBe(9_851_000n);
  });
});
