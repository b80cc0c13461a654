// The viem public client every chain adapter call goes through, with the bounds peerpay needs.
import { createPublicClient, http } from 'viem';
import { chainFor } from './viem-chain.js';

export function createChainPublicClient(options: { rpcUrl: string; chainId: number; requestTimeoutMs?: number }) {
  return createPublicClient({
    chain: chainFor(options),
    // Bounded: a withdrawal request waits on the node while a client waits on peerpay, so a hung node
    // must cost seconds, not viem's default of 10 s times four attempts. Jobs retry on their next
    // round anyway, so one retry here is enough for a dropped connection.
    transport: http(options.rpcUrl, { timeout: options.requestTimeoutMs ?? 4_000, retryCount: 1 }),
    // No cached answers: the block number must be the node's current one every time it is asked.
    cacheTime: 0,
  });
}

export type ChainPublicClient = ReturnType<typeof createChainPublicClient>;
