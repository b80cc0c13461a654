// getTransferLogs over viem: a token's Transfer events to (or from) given addresses, bounded so that
// public RPCs answer, without reorged-away or duplicate logs, in chain order.
import { getAddress, parseAbiItem } from 'viem';
import type { ChainAdapter, TokenTransferLog } from './chain-adapter.js';
import type { ChainPublicClient } from './viem-public-client.js';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

export function transferLogReader(
  publicClient: ChainPublicClient,
  limits: { maxLogBlockRange: bigint; maxLogRecipients: number },
): ChainAdapter['getTransferLogs'] {
  const { maxLogBlockRange, maxLogRecipients } = limits;
  return async ({ tokens, recipients, senders, fromBlock, toBlock }) => {
    if (fromBlock < 0n || toBlock < fromBlock) throw new RangeError(`bad block range ${fromBlock}..${toBlock}`);
    if (toBlock - fromBlock + 1n > maxLogBlockRange) {
      throw new RangeError(`block range ${fromBlock}..${toBlock} is wider than ${maxLogBlockRange} blocks`);
    }
    const addresses = recipients ?? senders;
    if (addresses.length > maxLogRecipients) {
      throw new RangeError(`${addresses.length} ${recipients ? 'recipients' : 'senders'} in one query; at most ${maxLogRecipients}`);
    }
    if (tokens.length === 0 || addresses.length === 0) return [];
    const logs = await publicClient.getLogs({
      address: [...tokens],
      event: transferEvent,
      args: recipients ? { to: [...recipients] } : { from: [...senders] },
      fromBlock,
      toBlock,
      strict: true,
    });
    const seen = new Set<string>();
    const transfers: TokenTransferLog[] = [];
    for (const log of logs) {
      // Logs of blocks that a reorg removed are not transfers; pending ones have no position yet.
      if (log.removed || log.blockNumber === null || log.logIndex === null || log.transactionHash === null) continue;
      const key = `${log.transactionHash}:${log.logIndex}`;
      if (seen.has(key)) continue;
      seen.add(key);
      transfers.push({
        token: getAddress(log.address),
        from: log.args.from,
        to: log.args.to,
        value: log.args.value,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        txHash: log.transactionHash,
        logIndex: log.logIndex,
      });
    }
    return transfers.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
  };
}
