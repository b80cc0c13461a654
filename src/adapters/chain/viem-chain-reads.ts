// The chain adapter's reads over viem: blocks, balances, token metadata, nonces and receipts.
import { BlockNotFoundError, TransactionReceiptNotFoundError, getAddress } from 'viem';
import type { ChainAdapter } from './chain-adapter.js';
import { fullTokenAbi } from './token-abi.js';
import type { ChainPublicClient } from './viem-public-client.js';

export type ChainReads = Pick<
  ChainAdapter,
  | 'getChainId'
  | 'getBlockNumber'
  | 'getBlock'
  | 'getTokenBalance'
  | 'getNativeBalance'
  | 'getMaxFeePerGas'
  | 'getTokenDomain'
  | 'getAuthorizationState'
  | 'getNonce'
  | 'getTransactionOutcome'
>;

export function chainReads(publicClient: ChainPublicClient, chainId: number): ChainReads {
  return {
    getChainId: () => publicClient.getChainId(),

    getBlockNumber: () => publicClient.getBlockNumber(),

    async getBlock(blockNumber) {
      try {
        const block = await publicClient.getBlock({ blockNumber });
        return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
      } catch (error) {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      }
    },

    getTokenBalance: ({ token, holder, blockNumber }) =>
      publicClient.readContract({
        address: token,
        abi: fullTokenAbi,
        functionName: 'balanceOf',
        args: [holder],
        ...(blockNumber === undefined ? {} : { blockNumber }),
      }),

    getNativeBalance: (address) => publicClient.getBalance({ address }),

    getMaxFeePerGas: async () => (await publicClient.estimateFeesPerGas()).maxFeePerGas,

    async getTokenDomain(token) {
      const [name, version] = await Promise.all([
        publicClient.readContract({ address: token, abi: fullTokenAbi, functionName: 'name' }),
        publicClient.readContract({ address: token, abi: fullTokenAbi, functionName: 'version' }),
      ]);
      return { name, version, chainId, verifyingContract: getAddress(token) };
    },

    getAuthorizationState: ({ token, authorizer, nonce }) =>
      publicClient.readContract({ address: token, abi: fullTokenAbi, functionName: 'authorizationState', args: [authorizer, nonce] }),

    getNonce: ({ address, blockTag }) => publicClient.getTransactionCount({ address, blockTag }),

    async getTransactionOutcome(hash) {
      let receipt;
      try {
        receipt = await publicClient.getTransactionReceipt({ hash });
      } catch (error) {
        if (error instanceof TransactionReceiptNotFoundError) return null;
        throw error;
      }
      const head = await publicClient.getBlockNumber();
      const confirmations = head >= receipt.blockNumber ? head - receipt.blockNumber + 1n : 0n;
      return { status: receipt.status, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, confirmations };
    },
  };
}
