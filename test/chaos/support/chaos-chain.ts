// The chain of a chaos run: anvil with the sandbox tokens, run by the test itself so that it
// outlives every peerpay process the test kills. peerpay reaches it as an external chain
// (CHAIN_RPC_URL), so the test mints and gives gas itself, and reads the chain with viem directly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPublicClient, erc20Abi, hexToBytes, http, parseAbiItem, type Address } from 'viem';
import { startEmbeddedChain, type EmbeddedChain } from '../../../src/adapters/chain/embedded-chain.js';
import { createViemSandboxChainAdapter } from '../../../src/adapters/chain/viem-chain-adapter.js';
import { chainFor } from '../../../src/adapters/chain/viem-chain.js';
import { createHdWalletProvider } from '../../../src/adapters/wallet/hd-wallet-provider.js';
import type { Token } from '../../../src/money/assets.js';
import { TEST_MASTER_SEED } from '../../helpers/test-server.js';

const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export interface ChaosChain {
  readonly rpcUrl: string;
  readonly hotWallet: Address;
  /** The environment that points a peerpay process at this chain, with the matching master seed. */
  readonly env: Record<string, string>;
  mint(to: Address | string, token: Token, amountMinor: bigint): Promise<void>;
  balanceOf(holder: Address | string, token: Token): Promise<bigint>;
  /** Every token Transfer log to `to`, from the first block. */
  transfersTo(to: Address | string, token: Token): Promise<{ from: Address; value: bigint; txHash: string }[]>;
  stop(): Promise<void>;
}

export async function startChaosChain(): Promise<ChaosChain> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-chaos-chain-'));
  const wallets = createHdWalletProvider(hexToBytes(TEST_MASTER_SEED as `0x${string}`));
  const embedded: EmbeddedChain = await startEmbeddedChain({ dataDir, tokenOwner: wallets.sandboxTokenOwner.address });
  const adapter = createViemSandboxChainAdapter({ rpcUrl: embedded.rpcUrl, chainId: embedded.chainId });
  await adapter.setNativeBalance({ address: wallets.hotWallet.address, wei: 10_000n * 10n ** 18n });
  const reader = createPublicClient({
    chain: chainFor({ chainId: embedded.chainId, rpcUrl: embedded.rpcUrl }),
    transport: http(embedded.rpcUrl),
    cacheTime: 0,
  });
  const rpcUrl = embedded.rpcUrl;
  return {
    rpcUrl,
    hotWallet: wallets.hotWallet.address,
    env: {
      CHAIN_RPC_URL: rpcUrl,
      CHAIN_ID: String(embedded.chainId),
      USDC_ADDRESS: embedded.tokens.USDC,
      EURC_ADDRESS: embedded.tokens.EURC,
      MASTER_SEED: TEST_MASTER_SEED,
    },
    async mint(to, token, amountMinor) {
      const hash = await adapter.mint({
        token: embedded.tokens[token],
        minter: wallets.sandboxTokenOwner,
        to: to as Address,
        amount: amountMinor,
      });
      const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
      if (receipt.status !== 'success') throw new Error(`mint ${hash} reverted`);
    },
    balanceOf: (holder, token) =>
      reader.readContract({ address: embedded.tokens[token], abi: erc20Abi, functionName: 'balanceOf', args: [holder as Address] }),
    async transfersTo(to, token) {
      const logs = await reader.getLogs({
        address: embedded.tokens[token],
        event: TRANSFER_EVENT,
        args: { to: to as Address },
        fromBlock: 0n,
        toBlock: 'latest',
      });
      return logs.map((log) => ({ from: log.args.from!, value: log.args.value!, txHash: log.transactionHash }));
    },
    async stop() {
      await embedded.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
