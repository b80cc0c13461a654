// A real embedded chain in a temporary DATA_DIR for one test file, with viem clients and helpers for
// making funded accounts. Every test file gets its own anvil, so files can run in parallel.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublicClient, createWalletClient, http, type Address, type Hash, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startEmbeddedChain, type EmbeddedChain } from '../../src/adapters/chain/embedded-chain.js';
import { createViemSandboxChainAdapter } from '../../src/adapters/chain/viem-chain-adapter.js';
import type { SandboxChainAdapter } from '../../src/adapters/chain/chain-adapter.js';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';

export const GAS_WEI = 10n ** 18n;

export function makeTempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-chain-'));
}

export function removeDataDir(dataDir: string): void {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

export function newAccount(): LocalAccount {
  return privateKeyToAccount(generatePrivateKey());
}

export interface ChainFixture {
  dataDir: string;
  chain: EmbeddedChain;
  owner: LocalAccount;
  adapter: SandboxChainAdapter;
  publicClient: ReturnType<typeof publicClientFor>;
  walletFor(account: LocalAccount): ReturnType<typeof walletClientFor>;
  /** A fresh account with gas and, optionally, tokens minted to it. */
  fundedAccount(tokens?: { token: Address; amount: bigint }): Promise<LocalAccount>;
  /** Waits for a transaction to be mined and returns its receipt status. */
  mined(hash: Hash): Promise<'success' | 'reverted'>;
  /** Mints as the token owner and waits until the mint is in a block. */
  mintMined(options: { token: Address; to: Address; amount: bigint }): Promise<Hash>;
  close(): Promise<void>;
}

function publicClientFor(rpcUrl: string) {
  return createPublicClient({ chain: chainFor({ chainId: 137, rpcUrl }), transport: http(rpcUrl), cacheTime: 0 });
}

function walletClientFor(rpcUrl: string, account: LocalAccount) {
  return createWalletClient({ account, chain: chainFor({ chainId: 137, rpcUrl }), transport: http(rpcUrl) });
}

export async function startChainFixture(options: { dataDir?: string; owner?: LocalAccount } = {}): Promise<ChainFixture> {
  const dataDir = options.dataDir ?? makeTempDataDir();
  const owner = options.owner ?? newAccount();
  const chain = await startEmbeddedChain({ dataDir, tokenOwner: owner.address });
  const adapter = createViemSandboxChainAdapter({ rpcUrl: chain.rpcUrl, chainId: chain.chainId });
  const publicClient = publicClientFor(chain.rpcUrl);
  const fixture: ChainFixture = {
    dataDir,
    chain,
    owner,
    adapter,
    publicClient,
    walletFor: (account) => walletClientFor(chain.rpcUrl, account),
    async fundedAccount(tokens) {
      const account = newAccount();
      await adapter.setNativeBalance({ address: account.address, wei: GAS_WEI });
      if (tokens) await fixture.mintMined({ token: tokens.token, to: account.address, amount: tokens.amount });
      return account;
    },
    async mined(hash) {
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
      return receipt.status;
    },
    async mintMined({ token, to, amount }) {
      const hash = await adapter.mint({ token, minter: owner, to, amount });
      if ((await fixture.mined(hash)) !== 'success') throw new Error('mint reverted');
      return hash;
    },
    close: () => chain.stop(),
  };
  return fixture;
}
