// What shows that a master seed was used on a chain before (startup/seed-use.ts), over a chain
// described in memory: a long one (Polygon's history cannot be read whole) and a short one. Every
// read is counted, so that the bounds are checked, not only the answers.
import { describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import type { TokenTransferLog, TransferLogQuery } from '../../src/adapters/chain/chain-adapter.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { DEPOSIT_ADDRESSES_CHECKED, findSeedUse, type SeedUseDeps } from '../../src/startup/seed-use.js';

const wallets = createHdWalletProvider(Buffer.from('33'.repeat(32), 'hex'));
const tokens = { USDC: '0x00000000000000000000000000000000000000a1', EURC: '0x00000000000000000000000000000000000000a2' } as const;

interface ChainFacts {
  head: bigint;
  hotWalletNonce?: number;
  transfers?: { to: Address; token: Address; blockNumber: bigint }[];
  balances?: { holder: Address; token: Address }[];
}

function chainOf(facts: ChainFacts) {
  const logQueries: TransferLogQuery[] = [];
  let balanceReads = 0;
  const chain = {
    getNonce: async ({ address }: { address: Address }) => (address === wallets.hotWallet.address ? (facts.hotWalletNonce ?? 0) : 0),
    getBlockNumber: async () => facts.head,
    getTransferLogs: async (query: TransferLogQuery): Promise<TokenTransferLog[]> => {
      expect(query.toBlock - query.fromBlock + 1n).toBeLessThanOrEqual(2000n);
      expect(query.recipients!.length).toBeLessThanOrEqual(1000);
      logQueries.push(query);
      return (facts.transfers ?? [])
        .filter((t) => t.blockNumber >= query.fromBlock && t.blockNumber <= query.toBlock)
        .filter((t) => query.recipients!.includes(t.to) && query.tokens.includes(t.token))
        .map((t, logIndex) => ({
          ...t,
          from: wallets.hotWallet.address,
          value: 1n,
          blockHash: `0x${'0'.repeat(64)}`,
          txHash: `0x${'1'.repeat(64)}`,
          logIndex,
        }));
    },
    getTokenBalance: async ({ token, holder }: { token: Address; holder: Address }) => {
      balanceReads++;
      return (facts.balances ?? []).some((b) => b.holder === holder && b.token === token) ? 5n : 0n;
    },
  };
  const deps = { chain: { chain, tokens }, wallets } as unknown as SeedUseDeps;
  return { deps, logQueries, balanceReads: () => balanceReads };
}

const depositAddress = (accountId: number) => wallets.walletFor(accountId).address;

describe('seed use on the chain', () => {
  it('a sandbox-length chain with nothing sent to the seed is read whole, in bounded queries, and shows nothing', async () => {
    const { deps, logQueries, balanceReads } = chainOf({
      head: 4_500n,
      transfers: [{ to: depositAddress(501), token: tokens.USDC, blockNumber: 7n }],
    });
    expect(await findSeedUse(deps)).toBeNull();
    expect(logQueries.map((q) => [q.fromBlock, q.toBlock])).toEqual([
      [2_501n, 4_500n],
      [501n, 2_500n],
      [0n, 500n],
    ]);
    expect(logQueries[0]!.recipients).toHaveLength(DEPOSIT_ADDRESSES_CHECKED);
    // The logs covered every block: a balance could only have come with a transfer among them.
    expect(balanceReads()).toBe(0);
  });

  it('a later deposit address that received tokens, even long gone, names that account and block', async () => {
    const { deps } = chainOf({ head: 4_500n, transfers: [{ to: depositAddress(37), token: tokens.EURC, blockNumber: 3n }] });
    expect(await findSeedUse(deps)).toBe(`the deposit address of account 37 (${depositAddress(37)}) received EURC in block 3`);
  });

  it('a hot wallet that has sent anything is enough, before any address is looked at', async () => {
    const { deps, logQueries } = chainOf({ head: 10n, hotWalletNonce: 4 });
    expect(await findSeedUse(deps)).toBe(`its hot wallet ${wallets.hotWallet.address} has sent 4 transactions`);
    expect(logQueries).toHaveLength(0);
  });

  it('on a chain too long to read whole, reads the newest 200,000 blocks, then balances of the same addresses', async () => {
    const head = 60_000_000n;
    const { deps, logQueries, balanceReads } = chainOf({
      head,
      // Older than the blocks read: the balance still there shows it.
      transfers: [{ to: depositAddress(300), token: tokens.USDC, blockNumber: 1_000n }],
      balances: [{ holder: depositAddress(300), token: tokens.USDC }],
    });
    expect(await findSeedUse(deps)).toBe(`the deposit address of account 300 (${depositAddress(300)}) holds USDC`);
    expect(logQueries).toHaveLength(100);
    expect(logQueries[0]!.toBlock).toBe(head);
    expect(logQueries.at(-1)!.fromBlock).toBe(head - 200_000n + 1n);
    for (let i = 1; i < logQueries.length; i++) expect(logQueries[i]!.toBlock).toBe(logQueries[i - 1]!.fromBlock - 1n);
    // Two tokens for each of the 300 accounts up to the one that holds some, read 8 accounts at a time.
    expect(balanceReads()).toBeLessThanOrEqual(2 * 304);
  });

  it('on a chain too long to read whole, with nothing at the first addresses, shows nothing after a bounded number of reads', async () => {
    const { deps, logQueries, balanceReads } = chainOf({ head: 60_000_000n });
    expect(await findSeedUse(deps)).toBeNull();
    expect(logQueries).toHaveLength(100);
    expect(balanceReads()).toBe(2 * DEPOSIT_ADDRESSES_CHECKED);
  });
});
