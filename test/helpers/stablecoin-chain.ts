// Helpers for tests of deposits, sweeps and funding against a running server and its embedded
// chain: the faucet, on-chain balances read with viem (not through peerpay's adapter), rounds of
// the chain jobs, the custody invariant, and a database that survives a server restart.
import path from 'node:path';
import { sql } from 'kysely';
import { createPublicClient, createTestClient, erc20Abi, http, type Address, type Hash } from 'viem';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { TOKENS, type Token } from '../../src/money/assets.js';
import { watchDeposits } from '../../src/stablecoin/deposits/deposit-watcher.js';
import { createPostgresTestDatabase, openPgliteTestDatabase } from './test-database.js';
import type { TestServer, TestUser } from './test-server.js';

export function chainClients(server: TestServer) {
  const { rpcUrl, chainId } = server.deps.chain;
  const chain = chainFor({ chainId, rpcUrl });
  return {
    publicClient: createPublicClient({ chain, transport: http(rpcUrl), cacheTime: 0 }),
    testClient: createTestClient({ chain, transport: http(rpcUrl), mode: 'anvil' }),
  };
}

/** The token balance of `holder` as the token contract reports it, read with viem directly. */
/** `holder`'s balance of `token` at the latest block, or at `blockNumber` when given. */
export async function onChainBalance(server: TestServer, token: Token, holder: Address | string, blockNumber?: bigint): Promise<bigint> {
  const { publicClient } = chainClients(server);
  return publicClient.readContract({
    address: server.deps.chain.tokens[token],
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder as Address],
    blockNumber,
  });
}

export async function faucet(server: TestServer, body: { address: string; amount: number; currency: string }): Promise<Hash> {
  const response = await server.request('POST', '/test-helpers/stablecoin/faucet', { body });
  if (response.status !== 200) throw new Error(`faucet: ${response.status} ${response.text}`);
  return response.body.txHash;
}

/** Waits for the transaction's receipt; throws unless it succeeded. */
export async function mined(server: TestServer, hash: Hash): Promise<bigint> {
  const receipt = await chainClients(server).publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt.blockNumber;
}

export async function accountIdByHandle(server: TestServer, user: TestUser): Promise<number> {
  const row = await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow();
  return row.id;
}

/** The user's available ledger balance of `token`, minor units, read from the ledger itself. */
export async function ledgerBalance(server: TestServer, accountId: number, token: Token): Promise<bigint> {
  const row = await server.deps.db
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_debits'])
    .where('owner_account_id', '=', accountId)
    .where('kind', '=', 'available')
    .where('asset', '=', token)
    .executeTakeFirst();
  return row ? row.balance - row.pending_debits : 0n;
}

/** Runs watcher rounds until one credits nothing and has read up to the confirmed head (at most 50). */
export async function drainDeposits(server: TestServer): Promise<number> {
  let credited = 0;
  for (let round = 0; round < 50; round++) {
    const head = await chainClients(server).publicClient.getBlockNumber();
    const result = await watchDeposits(server.deps);
    credited += result.credited;
    const confirmedHead = head - BigInt(server.deps.config.chainConfirmations) + 1n;
    if (!result.skipped && result.credited === 0 && result.nextBlock !== null && result.nextBlock > confirmedHead) return credited;
  }
  throw new Error('the deposit watcher did not catch up in 50 rounds');
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface CustodyView {
  /** -sum(ledger chain_custody): what the books say peerpay holds on chain for users. */
  booked: bigint;
  /** Tokens at every user's deposit address plus the hot wallet, less the hot wallet's holdings at the baseline. */
  onChain: bigint;
}

/**
 * The custody invariant's two sides for one token. `hotWalletBaseline` is what the hot wallet held
 * before the test began (tokens it holds for other reasons); every deposit address of every account
 * in the database is read on chain.
 */
export async function custodyOf(server: TestServer, token: Token, hotWalletBaseline: bigint): Promise<CustodyView> {
  const db = server.deps.db;
  const custody = await db
    .selectFrom('ledger_accounts')
    .select('balance')
    .where('code', '=', `platform:chain_custody:${token}`)
    .executeTakeFirst();
  const addresses = await db.selectFrom('accounts').select('deposit_address').where('deposit_address', 'is not', null).execute();
  // Every balance at one block: a sweep mined between two reads would otherwise be counted at
  // neither end (left the deposit address, not yet at the hot wallet) or at both.
  const block = await chainClients(server).publicClient.getBlockNumber({ cacheTime: 0 });
  let onChain = (await onChainBalance(server, token, server.deps.wallets.hotWallet.address, block)) - hotWalletBaseline;
  // Read 50 at a time: a file with a thousand accounts should not wait on a thousand round trips in a row.
  for (let i = 0; i < addresses.length; i += 50) {
    const balances = await Promise.all(addresses.slice(i, i + 50).map((a) => onChainBalance(server, token, a.deposit_address!, block)));
    for (const balance of balances) onChain += balance;
  }
  return { booked: -(custody?.balance ?? 0n), onChain };
}

export async function hotWalletBalances(server: TestServer): Promise<Record<Token, bigint>> {
  const out = {} as Record<Token, bigint>;
  for (const token of TOKENS) out[token] = await onChainBalance(server, token, server.deps.wallets.hotWallet.address);
  return out;
}

/** Everything a deposit or funding change would touch, for "nothing changed" checks. */
export async function depositSnapshot(server: TestServer): Promise<string> {
  const db = server.deps.db;
  const ledger = await sql<{
    n: string;
    total: string | null;
  }>`select count(*)::text as n, sum(amount)::text as total from ledger_transfers`.execute(db);
  const deposits = await sql<{ n: string }>`select count(*)::text as n from chain_deposits`.execute(db);
  const links = await sql<{ n: string; used: string }>`select count(*)::text as n, count(used_at)::text as used from links`.execute(db);
  return JSON.stringify({ ledger: ledger.rows, deposits: deposits.rows, links: links.rows });
}

/**
 * A database that outlives one server, for restart tests: PGlite files in `dataDir`, or a new
 * PostgreSQL database when DATABASE_URL is set (dropped by drop()).
 */
export async function persistentTestDatabase(dataDir: string): Promise<{ open(): Promise<Database>; drop(): Promise<void> }> {
  const postgres = await createPostgresTestDatabase({ migrated: true });
  return {
    open: () => (postgres ? openDatabase({ url: postgres.url, poolSize: 20 }) : openPgliteTestDatabase(path.join(dataDir, 'test-pglite'))),
    drop: async () => {
      await postgres?.drop();
    },
  };
}
