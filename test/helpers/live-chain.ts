// A separately started chain for live-mode tests: an anvil of its own standing in for the Polygon
// node (chain id 137, its own temporary data directory), with the sandbox USDC and EURC contracts
// on it and gas for peerpay's hot wallet. peerpay reaches it only through CHAIN_RPC_URL,
// USDC_ADDRESS and EURC_ADDRESS, as it would reach Polygon: it cannot mint here, because the
// tokens belong to a key that only this fixture knows, so tokens arrive the way they do in
// production, as transfers from outside (`mint` stands for an exchange or a wallet sending them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublicClient, http, keccak256, stringToBytes, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startAnvil } from '../../src/adapters/chain/anvil-process.js';
import { SANDBOX_TOKENS, ensureSandboxTokens } from '../../src/adapters/chain/sandbox-tokens.js';
import { createViemSandboxChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';

export const LIVE_CHAIN_ID = 137;

/**
 * The tokens' owner on the fixture chain: a fixed test key, not derived from any master seed, so
 * that the peerpay under test holds no key that can mint.
 */
const TOKEN_OWNER = privateKeyToAccount(keccak256(stringToBytes('peerpay test fixture: live chain token owner')));

const GAS_GRANT_WEI = 10_000n * 10n ** 18n;

export interface LiveChain {
  readonly rpcUrl: string;
  readonly chainId: typeof LIVE_CHAIN_ID;
  readonly tokens: Readonly<{ USDC: Address; EURC: Address }>;
  /** Mints `amountMinor` of the token to `to` and waits until it is mined; throws if it reverted. */
  mint(input: { to: Address; token: 'USDC' | 'EURC'; amountMinor: bigint }): Promise<Hash>;
  /** Stops anvil and removes its data directory. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startLiveChain(options: { hotWallet: Address }): Promise<LiveChain> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-live-chain-'));
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  let anvil;
  try {
    anvil = await startAnvil({ dataDir, chainId: LIVE_CHAIN_ID });
  } catch (error) {
    removeDataDir();
    throw error;
  }
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> => (stopping ??= anvil.stop().finally(removeDataDir));
  try {
    const { rpcUrl } = anvil;
    await ensureSandboxTokens({ rpcUrl, chainId: LIVE_CHAIN_ID, owner: TOKEN_OWNER.address });
    const chain = createViemSandboxChainAdapter({ rpcUrl, chainId: LIVE_CHAIN_ID });
    await chain.setNativeBalance({ address: TOKEN_OWNER.address, wei: GAS_GRANT_WEI });
    await chain.setNativeBalance({ address: options.hotWallet, wei: GAS_GRANT_WEI });
    const publicClient = createPublicClient({ chain: chainFor({ chainId: LIVE_CHAIN_ID, rpcUrl }), transport: http(rpcUrl) });
    const tokens = Object.freeze({ USDC: SANDBOX_TOKENS.USDC.address, EURC: SANDBOX_TOKENS.EURC.address });
    return {
      rpcUrl,
      chainId: LIVE_CHAIN_ID,
      tokens,
      async mint({ to, token, amountMinor }) {
        const hash = await chain.mint({ token: tokens[token], minter: TOKEN_OWNER, to, amount: amountMinor });
        const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
        if (receipt.status !== 'success') throw new Error(`minting ${amountMinor} ${token} to ${to} reverted (${hash})`);
        return hash;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
