// Helpers for withdrawal tests: fund the hot wallet on the embedded chain (as the sweeper would),
// withdraw, run the chain jobs until nothing is left to do, read on-chain balances, and snapshot
// everything a withdrawal would change.
import { sql } from 'kysely';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import type { Token } from '../../src/money/assets.js';
import { processWithdrawals } from '../../src/stablecoin/withdrawal-processing.js';
import { mined } from './stablecoin-chain.js';
import type { TestResponse, TestServer, TestUser } from './test-server.js';

export const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** Mints test tokens to peerpay's hot wallet, as swept deposits would have put them there. */
export async function fundHotWallet(server: TestServer, amountMinor: bigint, token: Token = 'USDC'): Promise<void> {
  const { deps } = server;
  // Mined before it returns: the node answers with the hash before its block is built, and a
  // balance read at once on a loaded machine could still see the wallet without it.
  const hash = await deps.chain.sandboxChain!.mint({
    token: deps.chain.tokens[token],
    minter: deps.wallets.sandboxTokenOwner,
    to: deps.wallets.hotWallet.address,
    amount: amountMinor,
  });
  await mined(server, hash);
}

export function onChainBalance(server: TestServer, holder: string, token: Token = 'USDC'): Promise<bigint> {
  return server.deps.chain.chain.getTokenBalance({ token: server.deps.chain.tokens[token], holder: holder as Address });
}

export function withdraw(server: TestServer, user: TestUser, body: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request('POST', '/stablecoin/withdraw', { key: user.key, body, headers });
}

/** Runs the outbox and withdrawal jobs until no withdrawal is pending (at most `rounds` rounds). */
export async function settleWithdrawals(server: TestServer, rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await server.deps.hotWalletOutbox.reconcile(50);
    await processWithdrawals(server.deps, 50);
    const open = await sql<{ n: string }>`select count(*)::text as n from withdrawals where status = 'pending'`.execute(server.deps.db);
    if (open.rows[0]!.n === '0') return;
  }
  throw new Error('withdrawals still pending after the jobs ran');
}

/** Everything a withdrawal would change: ledger rows and balances, withdrawals, outbox entries, nonces. */
export async function withdrawalSnapshot(server: TestServer): Promise<string> {
  const db = server.deps.db;
  const ledger = await sql<{
    n: string;
    total: string | null;
  }>`select count(*)::text as n, sum(amount)::text as total from ledger_transfers`.execute(db);
  const accounts = await sql<{ code: string; balance: string; pd: string; pc: string }>`
    select code, balance::text, pending_debits::text as pd, pending_credits::text as pc from ledger_accounts order by code`.execute(db);
  const withdrawals = await sql<{ n: string }>`select count(*)::text as n from withdrawals`.execute(db);
  const outbox = await sql<{ n: string }>`select count(*)::text as n from hot_wallet_outbox`.execute(db);
  const nonces = await sql<{
    sender: string;
    next_nonce: string;
  }>`select sender, next_nonce::text from chain_nonces order by sender`.execute(db);
  const defaults = await sql<{ n: string }>`select count(*)::text as n from withdrawal_addresses`.execute(db);
  return JSON.stringify({
    ledger: ledger.rows,
    accounts: accounts.rows,
    withdrawals: withdrawals.rows,
    outbox: outbox.rows,
    nonces: nonces.rows,
    defaults: defaults.rows,
  });
}

/** The chain transactions the outbox holds for these withdrawals. */
export async function outboxRowsFor(server: TestServer, withdrawalIds: string[]) {
  if (withdrawalIds.length === 0) return [];
  return server.deps.db
    .selectFrom('hot_wallet_outbox')
    .select(['reference_id', 'nonce', 'tx_hash', 'status'])
    .where('purpose', '=', 'withdrawal')
    .where('reference_id', 'in', withdrawalIds)
    .orderBy('nonce')
    .execute();
}
