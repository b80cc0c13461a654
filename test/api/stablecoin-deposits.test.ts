// Deposits end to end against a running server with its background jobs on, as `npm start` runs
// them (chain jobs every CHAIN_POLL_INTERVAL_MS, 1 s by default), checked on chain with viem: the
// faucet sends 100 USDC to Alice's deposit address, her balance shows 100 within seconds (the time
// is measured and printed), and the deposit is swept to the hot wallet; EURC too; bad faucet input
// is refused and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi } from 'viem';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { chainClients, custodyOf, depositSnapshot, faucet, onChainBalance, waitFor } from '../helpers/stablecoin-chain.js';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let hotWallet: string;
const hotWalletStart = { USDC: 0n, EURC: 0n };

beforeAll(async () => {
  server = await startTestServer({}, { jobs: true });
  alice = await registerUser(server);
  bob = await registerUser(server);
  hotWallet = server.deps.wallets.hotWallet.address;
  hotWalletStart.USDC = await onChainBalance(server, 'USDC', hotWallet);
  hotWalletStart.EURC = await onChainBalance(server, 'EURC', hotWallet);
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function balance(user: TestUser): Promise<{ USDC: string; EURC: string }> {
  const response = await server.request('GET', '/stablecoin/balance', { key: user.key });
  expect(response.status).toBe(200);
  return response.body;
}

describe('a deposit from outside', () => {
  it('is credited within seconds of the faucet, once, and swept to the hot wallet', async () => {
    const started = performance.now();
    const txHash = await faucet(server, { address: alice.depositAddress, amount: 100, currency: 'USDC' });
    await waitFor('the deposit to be credited', async () => (await balance(alice)).USDC === '100.000000');
    const creditedMs = Math.round(performance.now() - started);
    console.log(
      `deposit credited ${creditedMs} ms after the faucet call (chain poll interval ${server.deps.config.chainPollIntervalMs} ms)`,
    );
    // A liveness bound, not a performance figure (that is logged above): well past a few poll rounds.
    expect(creditedMs).toBeLessThan(15 * server.deps.config.chainPollIntervalMs);

    const { publicClient } = chainClients(server);
    const receipt = await publicClient.getTransactionReceipt({ hash: txHash });
    expect(receipt.status).toBe('success');

    // Swept: the deposit address holds nothing and the hot wallet 100 more, on chain.
    await waitFor('the sweep', async () => (await onChainBalance(server, 'USDC', alice.depositAddress)) === 0n);
    expect(await onChainBalance(server, 'USDC', hotWallet)).toBe(hotWalletStart.USDC + 100_000_000n);
    const sweptMs = Math.round(performance.now() - started);
    console.log(`deposit swept to the hot wallet ${sweptMs} ms after the faucet call`);
    await waitFor('the deposit row to be marked swept', async () => {
      const row = await server.deps.db.selectFrom('chain_deposits').select('swept_at').where('tx_hash', '=', txHash).executeTakeFirst();
      return row?.swept_at ?? null;
    });

    // Credited once, whatever the jobs did meanwhile.
    const rows = await server.deps.db.selectFrom('chain_deposits').selectAll().where('tx_hash', '=', txHash).execute();
    expect(rows).toHaveLength(1);
    expect(await balance(alice)).toEqual({ USDC: '100.000000', EURC: '0.000000' });
  });

  it('is credited within one poll interval and a round of being mined (five more deposits, timed)', async () => {
    const times: number[] = [];
    for (let i = 1; i <= 5; i++) {
      // Spread over the poll interval: right after a credit the next round is a whole interval away.
      await new Promise((resolve) => setTimeout(resolve, (i * server.deps.config.chainPollIntervalMs) / 6));
      const started = performance.now();
      await faucet(server, { address: bob.depositAddress, amount: 1, currency: 'USDC' });
      await waitFor('the deposit to be credited', async () => (await balance(bob)).USDC === `${i}.000000`);
      times.push(Math.round(performance.now() - started));
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `deposit to credit, ms: ${times.join(', ')} (median ${sorted[2]}, poll interval ${server.deps.config.chainPollIntervalMs} ms)`,
    );
    expect(Math.max(...times)).toBeLessThan(15 * server.deps.config.chainPollIntervalMs);
  });

  it('works for EURC, and for two users at once', async () => {
    await Promise.all([
      faucet(server, { address: alice.depositAddress, amount: 12.5, currency: 'EURC' }),
      faucet(server, { address: bob.depositAddress, amount: 0.000001, currency: 'EURC' }),
    ]);
    await waitFor('both deposits', async () => (await balance(alice)).EURC === '12.500000' && (await balance(bob)).EURC === '0.000001');
    await waitFor(
      'both sweeps',
      async () =>
        (await onChainBalance(server, 'EURC', alice.depositAddress)) + (await onChainBalance(server, 'EURC', bob.depositAddress)) === 0n,
    );
    expect(await onChainBalance(server, 'EURC', hotWallet)).toBe(hotWalletStart.EURC + 12_500_001n);
  });

  it('keeps the books equal to what peerpay holds on chain', async () => {
    await waitFor(
      'no sweep open',
      async () => (await server.deps.db.selectFrom('chain_sweeps').select('id').where('status', '=', 'open').execute()).length === 0,
    );
    for (const token of ['USDC', 'EURC'] as const) {
      const custody = await custodyOf(server, token, hotWalletStart[token]);
      expect(custody.onChain).toBe(custody.booked);
    }
  });
});

describe('POST /test-helpers/stablecoin/faucet', () => {
  async function supply(): Promise<bigint[]> {
    const { publicClient } = chainClients(server);
    return Promise.all(
      (['USDC', 'EURC'] as const).map((t) =>
        publicClient.readContract({ address: server.deps.chain.tokens[t], abi: erc20Abi, functionName: 'totalSupply' }),
      ),
    );
  }

  it('mints to any address, lowercase or checksummed', async () => {
    const lower = '0x' + 'ab'.repeat(20);
    const response = await server.request('POST', '/test-helpers/stablecoin/faucet', {
      body: { address: lower, amount: 1.5, currency: 'USDC' },
    });
    expect(response.status).toBe(200);
    expect(response.body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await waitFor('the mint', async () => (await onChainBalance(server, 'USDC', lower)) === 1_500_000n);
  });

  it.each([
    [{ address: '0x1234', amount: 1, currency: 'USDC' }, 'invalid_address'],
    [{ address: '0x' + 'g'.repeat(40), amount: 1, currency: 'USDC' }, 'invalid_address'],
    // A mixed-case address whose EIP-55 checksum is wrong (one letter's case flipped).
    [{ address: '0x52908400098527886e0F7030069857D2E4169EE7', amount: 1, currency: 'USDC' }, 'invalid_address'],
    [{ address: '0x0000000000000000000000000000000000000000', amount: 1, currency: 'USDC' }, 'invalid_address'],
    [{ address: '0x' + 'ab'.repeat(20), amount: 0, currency: 'USDC' }, 'invalid_amount'],
    [{ address: '0x' + 'ab'.repeat(20), amount: -1, currency: 'USDC' }, 'invalid_amount'],
    [{ address: '0x' + 'ab'.repeat(20), amount: 0.0000001, currency: 'USDC' }, 'invalid_amount'],
    [{ address: '0x' + 'ab'.repeat(20), amount: 1000001, currency: 'USDC' }, 'amount_too_large'],
    [{ address: '0x' + 'ab'.repeat(20), amount: 1, currency: 'DAI' }, 'unsupported_currency'],
    [{ address: '0x' + 'ab'.repeat(20), amount: '1', currency: 'USDC' }, 'invalid_request'],
    [{ address: '0x' + 'ab'.repeat(20), amount: 1 }, 'invalid_request'],
    [{ address: '0x' + 'ab'.repeat(20), amount: 1, currency: 'USDC', chain: 'MATIC' }, 'invalid_request'],
  ])('refuses %j with 400 %s and mints nothing', async (body, code) => {
    const before = { supply: await supply(), books: await depositSnapshot(server) };
    expectProblem(await server.request('POST', '/test-helpers/stablecoin/faucet', { body }), 400, code);
    expect(await supply()).toEqual(before.supply);
    expect(await depositSnapshot(server)).toBe(before.books);
  });
});

describe('POST /test-helpers/stablecoin/faucet when the node does not take the mint', () => {
  it('answers 503 funding_unavailable with Retry-After, mints nothing, and logs the cause', async () => {
    // A server that may offer at most 1 wei per gas: every block asks more, so the node refuses
    // each mint it signs (as when blocks are priced above CHAIN_MAX_FEE_PER_GAS_WEI).
    const capped = await startTestServer({ CHAIN_MAX_FEE_PER_GAS_WEI: '1' });
    try {
      const address = '0x' + 'cd'.repeat(20);
      const response = await capped.request('POST', '/test-helpers/stablecoin/faucet', {
        body: { address, amount: 2, currency: 'USDC' },
      });
      expectProblem(response, 503, 'funding_unavailable');
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.text).not.toMatch(/gas|wei|0x[0-9a-f]{64}/i);
      expect(await onChainBalance(capped, 'USDC', address)).toBe(0n);
      expect(capped.logs.some((line) => line.includes('sandbox mint not taken by the node'))).toBe(true);
    } finally {
      await capped.close();
    }
  });
});
