// The chain adapter over an RPC URL, built on viem. Sandbox and live mode run this same code; the
// sandbox variant adds minting and gas grants, which only the embedded anvil chain allows.
import { createTestClient, http, type Address } from 'viem';
import type { ChainAdapter, SandboxChainAdapter } from './chain-adapter.js';
import { broadcaster } from './viem-broadcast.js';
import { chainReads } from './viem-chain-reads.js';
import { authorizedTransferCall, chainSigning } from './viem-chain-signing.js';
import { createChainPublicClient } from './viem-public-client.js';
import { transferLogReader } from './viem-transfer-logs.js';

export interface ViemChainAdapterOptions {
  rpcUrl: string;
  chainId: number;
  /** Most blocks one getTransferLogs call may span; public Polygon RPCs refuse wide ranges. */
  maxLogBlockRange?: bigint;
  /** Most recipient (or sender) addresses one getTransferLogs call may filter on. */
  maxLogRecipients?: number;
  requestTimeoutMs?: number;
  /** No transaction is signed offering more than this per gas (CHAIN_MAX_FEE_PER_GAS_WEI); unset, no cap. */
  maxFeePerGasWei?: bigint;
}

export function createViemChainAdapter(options: ViemChainAdapterOptions): ChainAdapter {
  return buildAdapter(options).adapter;
}

export function createViemSandboxChainAdapter(options: ViemChainAdapterOptions): SandboxChainAdapter {
  const { adapter, publicClient, signContractCall, broadcast } = buildAdapter(options);
  const testClient = createTestClient({ chain: publicClient.chain, transport: http(options.rpcUrl), mode: 'anvil' });
  // Mints by one minter run one at a time, each with the next pending nonce, so that concurrent
  // faucet calls never race for a nonce.
  const mintQueues = new Map<Address, Promise<unknown>>();
  return {
    ...adapter,
    mint({ token, minter, to, amount }) {
      const previous = mintQueues.get(minter.address) ?? Promise.resolve();
      const next = previous
        .catch(() => undefined)
        .then(async () => {
          const nonce = await publicClient.getTransactionCount({ address: minter.address, blockTag: 'pending' });
          return broadcast(await signContractCall({ sender: minter, token, functionName: 'mint', args: [to, amount], nonce }));
        });
      mintQueues.set(minter.address, next);
      void next
        .finally(() => {
          if (mintQueues.get(minter.address) === next) mintQueues.delete(minter.address);
        })
        .catch(() => undefined);
      return next;
    },
    async setNativeBalance({ address, wei }) {
      await testClient.setBalance({ address, value: wei });
    },
  };
}

function buildAdapter(options: ViemChainAdapterOptions) {
  const publicClient = createChainPublicClient(options);
  const { signContractCall, signReplacement } = chainSigning(publicClient, options);
  const broadcast = broadcaster(publicClient);
  const getTransferLogs = transferLogReader(publicClient, {
    maxLogBlockRange: options.maxLogBlockRange ?? 2000n,
    maxLogRecipients: options.maxLogRecipients ?? 1000,
  });

  const adapter: ChainAdapter = {
    chainId: options.chainId,
    ...chainReads(publicClient, options.chainId),
    getTransferLogs,

    signTokenTransfer: ({ token, sender, to, amount, nonce }) =>
      signContractCall({ sender, token, nonce, functionName: 'transfer', args: [to, amount] }),

    signAuthorizedTransfer: ({ token, relayer, authorization, nonce }) =>
      signContractCall({ sender: relayer, token, nonce, ...authorizedTransferCall(authorization) }),

    signReplacement,

    broadcast,

    async sendTokenTransfer(transfer) {
      return broadcast(await adapter.signTokenTransfer(transfer));
    },

    async relayTransferWithAuthorization(relay) {
      return broadcast(await adapter.signAuthorizedTransfer(relay));
    },
  };

  return { adapter, publicClient, signContractCall, broadcast };
}
