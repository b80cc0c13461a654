// The worker's shared embedded chain (test/helpers/shared-chain.ts) is handed to each test file's
// server as fresh as a chain of its own: what an earlier server did on it (blocks, balances, nonces,
// time moved forward, automatic mining switched off) is gone, and a second server running at the
// same time gets a chain of its own.
import { afterAll, describe, expect, it } from 'vitest';
import { registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { chainClients, faucet, mined, onChainBalance } from '../helpers/stablecoin-chain.js';
import { selfWallets } from '../helpers/self-wallets.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function rpc(url: string, method: string, params: unknown[]): Promise<`0x${string}`> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await answer.json()) as { result?: `0x${string}`; error?: { message: string } };
  if (!body.result) throw new Error(`${method}: ${body.error?.message ?? 'no result'}`);
  return body.result;
}

async function start(): Promise<TestServer> {
  const server = await startTestServer();
  servers.push(server);
  return server;
}

describe('the shared test chain', () => {
  it('comes back to its base state for the next server', async () => {
    const first = await start();
    const { publicClient, testClient } = chainClients(first);
    const baseBlock = await publicClient.getBlockNumber();
    const user = await registerUser(first);
    await mined(first, await faucet(first, { address: user.depositAddress, amount: 7, currency: 'USDC' }));
    expect(await onChainBalance(first, 'USDC', user.depositAddress)).toBe(7_000_000n);
    await testClient.increaseTime({ seconds: 7 * 86_400 });
    await testClient.mine({ blocks: 3 });
    const baseFee = (await publicClient.getBlock({ blockNumber: baseBlock })).baseFeePerGas!;
    // A base fee raised far above what anyone offers must not outlive the file that raised it.
    await testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: baseFee * 1000n + 10n ** 12n });
    await testClient.mine({ blocks: 1 });
    await testClient.setAutomine(false);
    // A transaction left waiting in the pool must not be mined into the next file's chain.
    const stranger = '0x00000000000000000000000000000000000c0ffe' as const;
    await testClient.setBalance({ address: stranger, value: 10n ** 18n });
    await testClient.impersonateAccount({ address: stranger });
    const waiting = await rpc(first.deps.chain.rpcUrl, 'eth_sendTransaction', [{ from: stranger, to: user.depositAddress, value: '0x1' }]);
    await first.close();
    servers.length = 0;

    const second = await start();
    const again = chainClients(second);
    expect(second.deps.chain.rpcUrl).toBe(first.deps.chain.rpcUrl);
    expect(await again.publicClient.getBlockNumber()).toBe(baseBlock);
    expect(await onChainBalance(second, 'USDC', user.depositAddress)).toBe(0n);
    expect(await again.publicClient.getTransactionCount({ address: second.deps.wallets.hotWallet.address })).toBe(0);
    expect(await again.publicClient.getTransactionCount({ address: stranger })).toBe(0);
    // The same first user (same seed, new database) gets the same deposit address, with nothing on it.
    const sameAddress = await registerUser(second);
    expect(sameAddress.depositAddress).toBe(user.depositAddress);
    // Mined at once (automatic mining is back on), at the wall-clock time, not a week ahead.
    const hash = await faucet(second, { address: sameAddress.depositAddress, amount: 1, currency: 'USDC' });
    const block = await again.publicClient.getBlock({ blockNumber: await mined(second, hash) });
    expect(await again.publicClient.getTransactionReceipt({ hash: waiting }).catch(() => null)).toBeNull();
    expect(await again.publicClient.getTransactionCount({ address: stranger })).toBe(0);
    expect(Math.abs(Number(block.timestamp) - Date.now() / 1000)).toBeLessThan(120);
    expect(block.baseFeePerGas! <= baseFee).toBe(true);
  });

  it('is held by one server at a time: a second server running meanwhile starts its own', async () => {
    const holder = servers[0] ?? (await start());
    const other = await start();
    expect(other.deps.chain.rpcUrl).not.toBe(holder.deps.chain.rpcUrl);
    expect(await onChainBalance(other, 'USDC', selfWallets(holder.deps.wallets).walletFor(1).address)).toBe(0n);
  });
});
