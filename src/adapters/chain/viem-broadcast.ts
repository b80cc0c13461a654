// Sending a signed transaction over viem, so that sending it again is harmless.
import type { Hash } from 'viem';
import type { SignedTransaction } from './chain-adapter.js';
import type { ChainPublicClient } from './viem-public-client.js';

export function broadcaster(publicClient: ChainPublicClient): (transaction: SignedTransaction) => Promise<Hash> {
  return async (transaction) => {
    try {
      const hash = await publicClient.sendRawTransaction({ serializedTransaction: transaction.serialized });
      if (hash !== transaction.hash) throw new Error(`the node named transaction ${transaction.hash} ${hash}`);
      return hash;
    } catch (error) {
      // Sent before (a retry after a timeout or a crash): the node already has it, mined or pending.
      const known = await publicClient.getTransaction({ hash: transaction.hash }).then(
        () => true,
        () => false,
      );
      if (known) return transaction.hash;
      throw error;
    }
  };
}
