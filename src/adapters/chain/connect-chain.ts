// Connects peerpay to its chain: the embedded anvil in sandbox mode (unless CHAIN_RPC_URL names
// another node), or the configured RPC. Either way the rest of peerpay sees one ChainAdapter, the
// token addresses, and, on the embedded chain only, the sandbox powers (mint, gas).
import path from 'node:path';
import type { Address } from 'viem';
import type { Config } from '../../config.js';
import type { Token } from '../../money/assets.js';
import type { WalletProvider } from '../wallet/wallet-provider.js';
import type { ChainAdapter, SandboxChainAdapter } from './chain-adapter.js';
import { startEmbeddedChain, type EmbeddedChain } from './embedded-chain.js';
import { createViemChainAdapter, createViemSandboxChainAdapter } from './viem-chain-adapter.js';

/** The hot wallet pays gas for sweeps, withdrawals and relays; on the embedded chain it is topped up. */
const HOT_WALLET_GAS_FLOOR_WEI = 10n ** 18n;
const HOT_WALLET_GAS_GRANT_WEI = 10_000n * 10n ** 18n;

export interface ChainConnection {
  readonly chain: ChainAdapter;
  /** The embedded chain's extra powers; null on any other chain. */
  readonly sandboxChain: SandboxChainAdapter | null;
  readonly embedded: EmbeddedChain | null;
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly tokens: Readonly<Record<Token, Address>>;
  stop(): Promise<void>;
}

export async function connectChain(config: Config, wallets: WalletProvider): Promise<ChainConnection> {
  if (config.chainRpcUrl) {
    const { USDC, EURC } = config.tokenAddresses;
    if (!USDC || !EURC) throw new Error('token addresses are required with CHAIN_RPC_URL');
    const chain = createViemChainAdapter({
      rpcUrl: config.chainRpcUrl,
      chainId: config.chainId,
      maxFeePerGasWei: config.treasury.maxFeePerGasWei,
    });
    const reported = await chain.getChainId();
    if (reported !== config.chainId) throw new Error(`the node at CHAIN_RPC_URL is on chain ${reported}, not ${config.chainId}`);
    return {
      chain,
      sandboxChain: null,
      embedded: null,
      chainId: config.chainId,
      rpcUrl: config.chainRpcUrl,
      tokens: { USDC, EURC },
      stop: async () => {},
    };
  }
  const embedded = await startEmbeddedChain({ dataDir: path.join(config.dataDir, 'chain'), tokenOwner: wallets.sandboxTokenOwner.address });
  const sandboxChain = createViemSandboxChainAdapter({
    rpcUrl: embedded.rpcUrl,
    chainId: embedded.chainId,
    maxFeePerGasWei: config.treasury.maxFeePerGasWei,
  });
  await grantSandboxGas(sandboxChain, wallets.relayer.address);
  return {
    chain: sandboxChain,
    sandboxChain,
    embedded,
    chainId: embedded.chainId,
    rpcUrl: embedded.rpcUrl,
    tokens: embedded.tokens,
    stop: () => embedded.stop(),
  };
}

/** The embedded chain only: the key that pays peerpay's gas (the hot wallet; with circle, the x402 relay) gets some when it runs low. */
export async function grantSandboxGas(sandboxChain: Pick<SandboxChainAdapter, 'getNativeBalance' | 'setNativeBalance'>, address: Address) {
  if ((await sandboxChain.getNativeBalance(address)) < HOT_WALLET_GAS_FLOOR_WEI) {
    await sandboxChain.setNativeBalance({ address, wei: HOT_WALLET_GAS_GRANT_WEI });
  }
}
