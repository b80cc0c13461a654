// The embedded chain as sandbox mode starts it: tokens at fixed addresses on every fresh chain,
// balances and tokens kept across restarts without redeploying, and refusals when DATA_DIR's chain
// does not belong to this peerpay.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPublicClient, createTestClient, http, parseAbiItem, type Address } from 'viem';
import { startAnvil } from '../../src/adapters/chain/anvil-process.js';
import { SANDBOX_TOKENS, SANDBOX_TOKEN_RUNTIME_BYTECODE, SandboxTokenError } from '../../src/adapters/chain/sandbox-tokens.js';
import { startEmbeddedChain } from '../../src/adapters/chain/embedded-chain.js';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
import { makeTempDataDir, newAccount, removeDataDir, startChainFixture, type ChainFixture } from './chain-fixture.js';

const fixtures: ChainFixture[] = [];
const dataDirs: string[] = [];

afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  for (const dir of dataDirs.splice(0)) removeDataDir(dir);
});

async function fixtureOn(dataDir: string, owner = newAccount()): Promise<ChainFixture> {
  const fixture = await startChainFixture({ dataDir, owner });
  fixtures.push(fixture);
  return fixture;
}

function tempDir(): string {
  const dir = makeTempDataDir();
  dataDirs.push(dir);
  return dir;
}

const initializedEvent = parseAbiItem('event Initialized(string name, string symbol, uint8 decimals, address owner)');

async function initializations(fixture: ChainFixture, token: Address): Promise<number> {
  const logs = await fixture.publicClient.getLogs({ address: token, event: initializedEvent, fromBlock: 0n, toBlock: 'latest' });
  return logs.length;
}

describe('the embedded chain', () => {
  it('places and initialises both tokens at the same addresses on every fresh chain', async () => {
    const first = await fixtureOn(tempDir());
    const second = await fixtureOn(tempDir());
    for (const fixture of [first, second]) {
      expect(fixture.chain.chainId).toBe(137);
      expect(fixture.chain.tokens).toEqual({ USDC: SANDBOX_TOKENS.USDC.address, EURC: SANDBOX_TOKENS.EURC.address });
      expect(fixture.chain.initialisedTokens).toEqual(['USDC', 'EURC']);
      for (const token of Object.values(fixture.chain.tokens)) {
        expect(await fixture.publicClient.getCode({ address: token })).toBe(SANDBOX_TOKEN_RUNTIME_BYTECODE);
      }
    }
    // The owner can mint at once: it was given gas.
    expect(await first.adapter.getNativeBalance(first.owner.address)).toBeGreaterThan(0n);
  });

  it('keeps balances across a restart on the same DATA_DIR and redeploys nothing', async () => {
    const dataDir = tempDir();
    const owner = newAccount();
    const before = await fixtureOn(dataDir, owner);
    const holder = await before.fundedAccount({ token: before.chain.tokens.USDC, amount: 100_000_000n });
    const friend = newAccount().address;
    const sent = await before.adapter.sendTokenTransfer({
      token: before.chain.tokens.USDC,
      sender: holder,
      to: friend,
      amount: 10_000_000n,
      nonce: 0,
    });
    await before.mined(sent);
    await before.mintMined({ token: before.chain.tokens.EURC, to: friend, amount: 42n });
    const headBefore = await before.adapter.getBlockNumber();
    await before.close();
    fixtures.splice(fixtures.indexOf(before), 1);

    const after = await fixtureOn(dataDir, owner);
    const { USDC, EURC } = after.chain.tokens;
    expect(after.chain.initialisedTokens).toEqual([]);
    expect(await after.adapter.getBlockNumber()).toBe(headBefore);
    expect(await initializations(after, USDC)).toBe(1);
    expect(await initializations(after, EURC)).toBe(1);
    expect(await after.adapter.getTokenBalance({ token: USDC, holder: holder.address })).toBe(90_000_000n);
    expect(await after.adapter.getTokenBalance({ token: USDC, holder: friend })).toBe(10_000_000n);
    expect(await after.adapter.getTokenBalance({ token: EURC, holder: friend })).toBe(42n);
    // History survives too: the old transaction and its Transfer log are still there.
    expect(await after.adapter.getTransactionOutcome(sent)).toMatchObject({ status: 'success' });
    const logs = await after.adapter.getTransferLogs({ tokens: [USDC], recipients: [friend], fromBlock: 0n, toBlock: headBefore });
    expect(logs.map((log) => log.txHash)).toEqual([sent]);
    // And the chain goes on: nonces continue where they were.
    await after.mintMined({ token: USDC, to: friend, amount: 1n });
    expect(await after.adapter.getTokenBalance({ token: USDC, holder: friend })).toBe(10_000_001n);
  });

  it('refuses a DATA_DIR chain whose tokens belong to another owner, and leaves no anvil running', async () => {
    const dataDir = tempDir();
    await (await fixtureOn(dataDir)).close();
    fixtures.splice(0);
    await expect(startEmbeddedChain({ dataDir, tokenOwner: newAccount().address })).rejects.toThrow(SandboxTokenError);
    // Had the refused start left its anvil running, this one would fail as "already running".
    await expect(startEmbeddedChain({ dataDir, tokenOwner: newAccount().address })).rejects.toThrow(/another master seed/);
    expect(fs.existsSync(path.join(dataDir, 'anvil.pid'))).toBe(false);
  });

  it('refuses a DATA_DIR chain holding other code at a token address', async () => {
    const dataDir = tempDir();
    const anvil = await startAnvil({ dataDir, chainId: 137 });
    const client = createTestClient({
      chain: chainFor({ chainId: 137, rpcUrl: anvil.rpcUrl }),
      transport: http(anvil.rpcUrl),
      mode: 'anvil',
    });
    await client.setCode({ address: SANDBOX_TOKENS.USDC.address, bytecode: '0x00' });
    await anvil.stop();
    await expect(startEmbeddedChain({ dataDir, tokenOwner: newAccount().address })).rejects.toThrow(/not this release's SandboxToken/);
  });

  it('finishes a deployment that stopped between placing the code and initialising it', async () => {
    const dataDir = tempDir();
    const anvil = await startAnvil({ dataDir, chainId: 137 });
    const client = createTestClient({
      chain: chainFor({ chainId: 137, rpcUrl: anvil.rpcUrl }),
      transport: http(anvil.rpcUrl),
      mode: 'anvil',
    });
    await client.setCode({ address: SANDBOX_TOKENS.USDC.address, bytecode: SANDBOX_TOKEN_RUNTIME_BYTECODE });
    await anvil.stop();
    const fixture = await fixtureOn(dataDir);
    expect(fixture.chain.initialisedTokens).toEqual(['USDC', 'EURC']);
    const reader = createPublicClient({
      chain: chainFor({ chainId: 137, rpcUrl: fixture.chain.rpcUrl }),
      transport: http(fixture.chain.rpcUrl),
    });
    expect(
      await reader.readContract({
        address: SANDBOX_TOKENS.USDC.address,
        abi: [parseAbiItem('function name() view returns (string)')],
        functionName: 'name',
      }),
    ).toBe('USD Coin');
  });

  it('reports an anvil that died under it', async () => {
    const fixture = await fixtureOn(tempDir());
    expect(fixture.chain.isRunning()).toBe(true);
    const record = JSON.parse(fs.readFileSync(path.join(fixture.dataDir, 'anvil.pid'), 'utf8')) as { anvilPid: number };
    process.kill(record.anvilPid, 'SIGKILL');
    expect((await fixture.chain.exited).signal).toBe('SIGKILL');
    expect(fixture.chain.isRunning()).toBe(false);
  });
});
