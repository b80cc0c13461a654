// Inbound transfers as Circle sees them: every token Transfer log on the chain whose recipient is
// one of the stand-in's wallets (from anyone, another Circle wallet included) becomes one INBOUND
// transaction, CONFIRMED and then COMPLETE, each notified (transactions.inbound). A log is taken
// once, by (txHash, logIndex), however often the chain is scanned.
import type { Address } from 'viem';
import type { SandboxChainAdapter, TokenTransferLog } from '../../../src/adapters/chain/chain-adapter.js';

export interface InboundScanner {
  /** The logs not seen before, up to the newest block. */
  scan(recipients: readonly Address[]): Promise<TokenTransferLog[]>;
}

export function createInboundScanner(chain: SandboxChainAdapter, tokens: readonly Address[], startBlock: bigint): InboundScanner {
  let next = startBlock;
  const seen = new Set<string>();
  return {
    async scan(recipients) {
      const newest = await chain.getBlockNumber();
      if (recipients.length === 0 || newest < next) {
        next = newest + 1n;
        return [];
      }
      const found: TokenTransferLog[] = [];
      for (let from = next; from <= newest; from += 2000n) {
        const to = from + 1999n < newest ? from + 1999n : newest;
        for (let i = 0; i < recipients.length; i += 1000) {
          const logs = await chain.getTransferLogs({ tokens, fromBlock: from, toBlock: to, recipients: recipients.slice(i, i + 1000) });
          found.push(...logs);
        }
      }
      next = newest + 1n;
      const fresh = found.filter((log) => !seen.has(`${log.txHash}:${log.logIndex}`));
      for (const log of fresh) seen.add(`${log.txHash}:${log.logIndex}`);
      return fresh.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
    },
  };
}
