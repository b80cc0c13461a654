// Whether the chain shows that this master seed was used before, by a database now gone: a new
// database starts its account ids at 1 again, so it would hand the old users' deposit addresses
// (derived from the account id) to new users, and credit them with the old users' deposits.
// Account ids are handed out in order, so an old installation used the first addresses. What the
// chain can tell, read in order of cost, every read bounded:
// 1. the hot wallet has sent a transaction. It is peerpay's only sender (sweeps, withdrawals, x402
//    settlements, cold moves), so tokens that left a deposit address through peerpay show here.
// 2. a Transfer of a token to one of the first DEPOSIT_ADDRESSES_CHECKED deposit addresses, in the
//    newest LOG_QUERIES_MAX × BLOCKS_PER_LOG_QUERY blocks, newest first: tokens received there, also
//    when they left again (the embedded chain is never that long, so there it is its whole history).
// 3. when those blocks are not the whole chain: a balance at one of those addresses, for tokens that
//    arrived before them and stayed (any that left went through the hot wallet, step 1).
// What no chain shows: an address handed out that never received anything. The database's own
// record (installation_identity) is what lets a restored backup start; decision 0031.
import type { Address } from 'viem';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { TokenTransferLog } from '../adapters/chain/chain-adapter.js';
import type { SelfWalletProvider } from '../adapters/wallet/wallet-provider.js';
import { TOKENS } from '../money/assets.js';

/** Deposit addresses of accounts 1 to this many are looked at (one log query's recipients). */
export const DEPOSIT_ADDRESSES_CHECKED = 500;
/** The chain adapter's widest log query. */
const BLOCKS_PER_LOG_QUERY = 2000n;
/** Log queries at most: the newest 200,000 blocks (about 4.6 days of Polygon, all of a sandbox chain). */
const LOG_QUERIES_MAX = 100;
/** Balance reads in flight at once, when balances are read. */
const BALANCE_READS_AT_ONCE = 8;

export interface SeedUseDeps {
  chain: Pick<ChainConnection, 'chain' | 'tokens'>;
  wallets: Pick<SelfWalletProvider, 'hotWallet' | 'walletFor'>;
}

interface CheckedAddress {
  accountId: number;
  address: Address;
}

/** What shows that the seed was used on this chain, in words for the refusal; null when nothing does. */
export async function findSeedUse(deps: SeedUseDeps): Promise<string | null> {
  const hot = deps.wallets.hotWallet.address;
  const sent = await deps.chain.chain.getNonce({ address: hot, blockTag: 'latest' });
  if (sent > 0) return `its hot wallet ${hot} has sent ${sent} transactions`;
  const addresses: CheckedAddress[] = [];
  for (let accountId = 1; accountId <= DEPOSIT_ADDRESSES_CHECKED; accountId++) {
    addresses.push({ accountId, address: deps.wallets.walletFor(accountId).address });
  }
  const logs = await newestTransferTo(deps, addresses);
  if (logs.found) return describeTransfer(deps, addresses, logs.found);
  return logs.wholeChain ? null : findBalance(deps, addresses);
}

/** The newest Transfer to one of `addresses`, and whether the blocks read were the whole chain. */
async function newestTransferTo(
  deps: SeedUseDeps,
  addresses: readonly CheckedAddress[],
): Promise<{ found: TokenTransferLog | null; wholeChain: boolean }> {
  const tokens = TOKENS.map((token) => deps.chain.tokens[token]);
  const recipients = addresses.map((checked) => checked.address);
  let toBlock = await deps.chain.chain.getBlockNumber();
  for (let query = 0; query < LOG_QUERIES_MAX; query++) {
    const fromBlock = toBlock >= BLOCKS_PER_LOG_QUERY ? toBlock - BLOCKS_PER_LOG_QUERY + 1n : 0n;
    const logs = await deps.chain.chain.getTransferLogs({ tokens, recipients, fromBlock, toBlock });
    if (logs.length > 0) return { found: logs[logs.length - 1]!, wholeChain: fromBlock === 0n };
    if (fromBlock === 0n) return { found: null, wholeChain: true };
    toBlock = fromBlock - 1n;
  }
  return { found: null, wholeChain: false };
}

async function findBalance(deps: SeedUseDeps, addresses: readonly CheckedAddress[]): Promise<string | null> {
  for (let start = 0; start < addresses.length; start += BALANCE_READS_AT_ONCE) {
    const batch = addresses.slice(start, start + BALANCE_READS_AT_ONCE);
    const reads = batch.flatMap((checked) =>
      TOKENS.map(async (token) => {
        const balance = await deps.chain.chain.getTokenBalance({ token: deps.chain.tokens[token], holder: checked.address });
        return balance > 0n ? `the deposit address of account ${checked.accountId} (${checked.address}) holds ${token}` : null;
      }),
    );
    const held = (await Promise.all(reads)).find((found) => found !== null);
    if (held) return held;
  }
  return null;
}

function describeTransfer(deps: SeedUseDeps, addresses: readonly CheckedAddress[], log: TokenTransferLog): string {
  const to = log.to.toLowerCase();
  const checked = addresses.find((candidate) => candidate.address.toLowerCase() === to);
  const token = TOKENS.find((name) => deps.chain.tokens[name].toLowerCase() === log.token.toLowerCase()) ?? log.token;
  return `the deposit address of account ${checked?.accountId ?? '?'} (${checked?.address ?? log.to}) received ${token} in block ${log.blockNumber}`;
}
