// Books against custody (DESIGN §15): for each token, what the ledger says peerpay holds on chain
// for others is compared with what the chain holds at peerpay's addresses (the hot wallet and every
// deposit address), all read at ONE pinned block so that a sweep mined between two reads is counted
// exactly once. The invariant is chain >= books, not equality: tokens that arrived at a deposit
// address and are not yet credited (confirmations) are on chain and not yet on the books, and so
// is gas money or anything else sent to the hot wallet. A shortfall (books > chain) means the books
// promise users money that is not there: it is logged as an error, recorded in custody_checks
// (which /health/ready and the metrics read, in every process) and exported as a metric.
//
// The books' side: chain_custody mirrors the holdings (it goes negative as tokens arrive), so the
// books hold -balance. A withdrawal reserves its net as a PENDING credit of chain_custody and posts
// it only once its transaction has confirmations; between mining and posting, the tokens have left
// while the books still count them. So the books' figure is -(balance + pending_credits): what
// must still be held once every withdrawal under way has left. (A withdrawal that then fails is
// voided and its tokens were never sent, so this can only under-state the books, never raise a
// false alarm.)
//
// The chain's side also counts what went to the operator's cold addresses: tokens the hot wallet
// sent there stay peerpay's custody, and the books do not move when they go. They count as far as
// they are still peerpay's and still there (cold-custody.ts; decisions 0019, 0024 and 0025).
import { sql } from 'kysely';
import type { Address } from 'viem';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { TOKENS, type Token } from '../money/assets.js';
import { coldCustodyMinor } from './cold-custody.js';
import { holdingsAt } from './token-holdings.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { CircleWalletProvider, WalletProvider } from '../adapters/wallet/wallet-provider.js';
import { circleHoldings } from './circle-holdings.js';
import type { Config } from '../config.js';
import type { Clock } from '../platform/clock.js';

/** A bound on one check: deposit addresses read per token. Beyond it the check refuses to guess. */
export const MAX_DEPOSIT_ADDRESSES = 100_000;

export interface CustodyResult {
  token: Token;
  booksMinor: bigint;
  chainMinor: bigint;
  blockNumber: bigint;
  ok: boolean;
}

export type CustodyCheckDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; clock: Clock; config: Config };

/** Runs one check now, records it in custody_checks and logs a shortfall as an error. */
export async function checkCustody(deps: CustodyCheckDeps, log?: Pick<FastifyBaseLogger, 'error'>): Promise<CustodyResult[]> {
  const chain = deps.chain.chain;
  const blockNumber = await chain.getBlockNumber();
  const addresses = await depositAddresses(deps.db);
  const holders: Address[] = [deps.wallets.hotWallet.address, ...addresses];
  const cold = await coldCustodyMinor(deps, { ownAddresses: holders, blockNumber });
  const results: CustodyResult[] = [];
  for (const token of TOKENS) {
    const chainMinor = (await holdingsAt(deps, { token, holders, blockNumber })) + cold.get(token)!;
    const booksMinor = await booksOf(deps.db, token);
    results.push({ token, booksMinor, chainMinor, blockNumber, ok: chainMinor >= booksMinor });
  }
  if (deps.wallets.provider === 'circle') await countCircle({ ...deps, wallets: deps.wallets }, results, cold);
  await recordResults(deps.db, results);
  for (const r of results) {
    if (!r.ok) {
      log?.error(
        {
          token: r.token,
          booksMinor: String(r.booksMinor),
          chainMinor: String(r.chainMinor),
          shortfallMinor: String(r.booksMinor - r.chainMinor),
          blockNumber: String(r.blockNumber),
        },
        'custody shortfall: the books say peerpay holds more on chain than the hot wallet and deposit addresses hold',
      );
    }
  }
  return results;
}

/** Attempts at reading Circle's balances while they show less than the books (a sweep may complete between two reads). */
const CIRCLE_READ_ATTEMPTS = 3;

/**
 * WALLET_PROVIDER=circle: custody is what the chain AND Circle both show. Each result's custody
 * becomes the lesser of the chain's figure and Circle's balances (plus what went cold, which Circle
 * does not hold), so a shortfall by either is a shortfall.
 */
async function countCircle(
  deps: CustodyCheckDeps & { wallets: CircleWalletProvider },
  results: CustodyResult[],
  cold: ReadonlyMap<Token, bigint>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const held = await circleHoldings(deps);
    const circleMinor = (token: Token) => held.get(token)! + cold.get(token)!;
    if (attempt < CIRCLE_READ_ATTEMPTS && results.some((r) => r.ok && circleMinor(r.token) < r.booksMinor)) continue;
    for (const r of results) {
      if (circleMinor(r.token) < r.chainMinor) r.chainMinor = circleMinor(r.token);
      r.ok = r.chainMinor >= r.booksMinor;
    }
    return;
  }
}

/** What the books say peerpay must hold on chain of `token`, once withdrawals under way have left. */
async function booksOf(db: Db, token: Token): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_credits'])
    .where('code', '=', `platform:chain_custody:${token}`)
    .executeTakeFirst();
  return row ? -(row.balance + row.pending_credits) : 0n;
}

async function depositAddresses(db: Db): Promise<Address[]> {
  const rows = await db
    .selectFrom('accounts')
    .select('deposit_address')
    .where('deposit_address', 'is not', null)
    .orderBy('id')
    .limit(MAX_DEPOSIT_ADDRESSES + 1)
    .execute();
  if (rows.length > MAX_DEPOSIT_ADDRESSES)
    throw new Error(`custody check: more than ${MAX_DEPOSIT_ADDRESSES} deposit addresses; the check needs another way to read them`);
  return rows.map((r) => r.deposit_address as Address);
}

async function recordResults(db: Db, results: readonly CustodyResult[]): Promise<void> {
  const rows = results.map(
    (r) =>
      sql`(${r.token}, ${String(r.booksMinor)}::numeric, ${String(r.chainMinor)}::numeric, ${r.blockNumber}::bigint, ${r.ok}, now(), case when ${r.ok} then null else now() end)`,
  );
  // failing_since: kept from the first failing check while the checks keep failing, cleared by one that does not.
  await sql`
    insert into custody_checks (token, books_minor, chain_minor, block_number, ok, checked_at, failing_since)
    values ${sql.join(rows)}
    on conflict (token) do update
       set books_minor = excluded.books_minor, chain_minor = excluded.chain_minor,
           block_number = excluded.block_number, ok = excluded.ok, checked_at = excluded.checked_at,
           failing_since = case when excluded.ok then null
                                else coalesce(custody_checks.failing_since, excluded.checked_at) end`.execute(db);
}

/**
 * The job's round: a check when the last one (by any process) is older than `intervalMs`, by the
 * database's clock; otherwise nothing. Returns the tokens checked.
 */
export async function checkCustodyIfDue(
  deps: CustodyCheckDeps,
  input: { intervalMs: number; log?: Pick<FastifyBaseLogger, 'error'> },
): Promise<number> {
  const due = await sql<{ due: boolean }>`
    select coalesce(min(checked_at) < now() - make_interval(secs => ${input.intervalMs / 1000}), true)
        or count(*) < ${TOKENS.length} as due
      from custody_checks`.execute(deps.db);
  if (!due.rows[0]?.due) return 0;
  return (await checkCustody(deps, input.log)).length;
}
