// The embedded chain that test/helpers/global-setup.ts started for this worker slot, handed to one
// test server at a time as if that server had started it: before each use the chain goes back to
// its base snapshot (tokens deployed, gas granted, nothing else), so a test file sees the same fresh
// chain as on a chain of its own, without starting anvil and deploying the tokens again.
//
// anvil deletes a snapshot when it reverts to it, so each use takes the base snapshot again and
// keeps its new id in a file per slot (only one test file at a time runs in a slot).
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import type { ChainConnection } from '../../src/adapters/chain/connect-chain.js';
import { SANDBOX_CHAIN_ID, type EmbeddedChain } from '../../src/adapters/chain/embedded-chain.js';
import { SANDBOX_TOKENS } from '../../src/adapters/chain/sandbox-tokens.js';
import { createViemSandboxChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import type { TestFixtures } from './test-fixtures.js';

let leased = false;

/**
 * This slot's shared chain, reverted to its base snapshot, or null when there is none (outside the
 * main vitest config) or when another server of this test file holds it (that one starts its own
 * chain, as two servers of the same seed on one chain would see each other's deposits). stop()
 * hands it back; anvil keeps running until the end of the run.
 */
export async function acquireSharedChain(): Promise<ChainConnection | null> {
  const fixture = testFixtures()?.sharedChain;
  const slot = Number(process.env.VITEST_POOL_ID);
  const rpcUrl = fixture?.rpcUrls[slot - 1];
  if (!fixture || !rpcUrl || leased) return null;
  leased = true;
  try {
    await revertToBase({ rpcUrl, snapshotDir: fixture.snapshotDir, slot });
  } catch (error) {
    leased = false;
    throw error;
  }
  const tokens = Object.freeze({ USDC: SANDBOX_TOKENS.USDC.address, EURC: SANDBOX_TOKENS.EURC.address });
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    leased = false;
  };
  const embedded: EmbeddedChain = {
    rpcUrl,
    chainId: SANDBOX_CHAIN_ID,
    tokens,
    initialisedTokens: [],
    // Runs until the end of the test run, past this file.
    exited: new Promise(() => {}),
    isRunning: () => true,
    stop: release,
  };
  const sandboxChain = createViemSandboxChainAdapter({ rpcUrl, chainId: SANDBOX_CHAIN_ID });
  return { chain: sandboxChain, sandboxChain, embedded, chainId: SANDBOX_CHAIN_ID, rpcUrl, tokens, stop: release };
}

function testFixtures(): TestFixtures | undefined {
  try {
    return inject('peerpayTestFixtures');
  } catch {
    return undefined;
  }
}

async function revertToBase(options: { rpcUrl: string; snapshotDir: string; slot: number }): Promise<void> {
  const id = readSlotSnapshot(options.snapshotDir, options.slot);
  // Transactions still waiting in anvil's pool survive a revert and would be mined into the next
  // file's fresh chain as soon as automatic mining is back on (a hot wallet transaction of the last
  // file taking the nonce the next file's first one needs): the pool is emptied first.
  await rpc(options.rpcUrl, 'anvil_dropAllTransactions', []);
  if ((await rpc(options.rpcUrl, 'evm_revert', [id])) !== true) {
    throw new Error(`the shared chain of worker slot ${options.slot} could not go back to its base snapshot ${id}`);
  }
  // A revert also puts anvil's clock back to the snapshot's block; blocks from now on carry the
  // wall-clock time again, as on a chain started now (authorizations are signed against it).
  await rpc(options.rpcUrl, 'evm_setTime', [Math.floor(Date.now() / 1000)]);
  // The mining mode is not part of a snapshot: a file that switched automatic mining off (and
  // failed before switching it back) must not leave it off for the next.
  await rpc(options.rpcUrl, 'evm_setAutomine', [true]);
  // Nor is the base fee: anvil keeps the next block's base fee across a revert, so a file that
  // raised it (a test of transactions priced below what blocks take) would leave every later file's
  // transactions refused as underpriced. The next block takes the base block's fee again.
  const base = (await rpc(options.rpcUrl, 'eth_getBlockByNumber', ['latest', false])) as { baseFeePerGas?: string } | null;
  if (base?.baseFeePerGas) await rpc(options.rpcUrl, 'anvil_setNextBlockBaseFeePerGas', [base.baseFeePerGas]);
  writeSlotSnapshot(options.snapshotDir, options.slot, await takeSnapshot(options.rpcUrl));
}

export async function takeSnapshot(rpcUrl: string): Promise<string> {
  return String(await rpc(rpcUrl, 'evm_snapshot', []));
}

export function writeSlotSnapshot(snapshotDir: string, slot: number, id: string): void {
  fs.writeFileSync(path.join(snapshotDir, `slot-${slot}.json`), JSON.stringify({ id }));
}

function readSlotSnapshot(snapshotDir: string, slot: number): string {
  return JSON.parse(fs.readFileSync(path.join(snapshotDir, `slot-${slot}.json`), 'utf8')).id;
}

async function rpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method} on the shared chain: ${body.error.message}`);
  return body.result;
}
