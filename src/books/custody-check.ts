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
// The chain's side also counts what went to the operator's cold addresses (decisions 0019 and 0024):
// tokens the hot wallet sent there stay peerpay's custody, and the books do not move when they go.
// Each cold address counts for what peerpay sent it (signed, not reverted), less what it has sent
// back to peerpay's own addresses (cold-returns.ts), and never more than it holds at the pinned
// block. So a transfer signed and not yet mined counts once (still in the hot wallet, not yet at
// the cold address), tokens the operator sends back to the hot wallet count once (there, and no
// longer at the cold address, even once the operator tops it up again), and the operator's own
// tokens at a cold address are not counted. Tokens the operator moves from a cold address to
// anywhere else are no longer at an address peerpay knows: the books then promise users more than
// the chain shows, which is what the check reports.
import { sql } from 'kysely';
import type { Address } from 'viem';
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.js';
import type { Db } from '../db/database.js';
import { TOKENS, type Token } from '../money/assets.js';
import { assert } from '../platform/errors.js';
import { coldReturns, returnKey } from './cold-returns.js';

/** Balances read at once against the node; the rest wait for the previous ones. */
const READ_CONCURRENCY = 25;
/** A bound on one check: deposit addresses read per token. Beyond it the check refuses to guess. */
export const MAX_DEPOSIT_ADDRESSES = 100_000;
/** A bound on one check: cold addresses ever used (one per COLD_WALLET_ADDRESS configured). */
const MAX_COLD_ADDRESSES = 1_000;

export interface CustodyResult {
  token: Token;
  booksMinor: bigint;
  chainMinor: bigint;
  blockNumber: bigint;
  ok: boolean;
}

export type CustodyCheckDeps = Pick<Deps, 'db' | 'chain' | 'wallets' | 'clock' | 'config'>;

/** Runs one check now, records it in custody_checks and logs a shortfall as an error. */
export async function checkCustody(deps: CustodyCheckDeps, log?: Pick<FastifyBaseLogger, 'error'>): Promise<CustodyResult[]> {
  const chain = deps.chain.chain;
  const blockNumber = await chain.getBlockNumber();
  const addresses = await depositAddresses(deps.db);
  const holders: Address[] = [deps.wallets.hotWallet.address, ...addresses];
  // Read after the block is pinned: a cold address first used later can have nothing back by then.
  const sentCold = await coldSends(deps.db);
  const returned = await coldReturns(deps, {
    coldAddresses: [...new Set(sentCold.map((s) => s.address))],
    ownAddresses: holders,
    pinnedBlock: blockNumber,
  });
  const results: CustodyResult[] = [];
  for (const token of TOKENS) {
    const cold = await coldHeldMinor(deps, {
      sends: sentCold.filter((s) => s.token === token),
      returned,
      blockNumber,
    });
    const chainMinor = (await holdingsAt(deps, { token, holders, blockNumber })) + cold;
    const booksMinor = await booksOf(deps.db, token);
    results.push({ token, booksMinor, chainMinor, blockNumber, ok: chainMinor >= booksMinor });
  }
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

/** What the books say peerpay must hold on chain of `token`, once withdrawals under way have left. */
async function booksOf(db: Db, token: Token): Promise<bigint> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select(['balance', 'pending_credits'])
    .where('code', '=', `platform:chain_custody:${token}`)
    .executeTakeFirst();
  return row ? -(row.balance + row.pending_credits) : 0n;
}

interface ColdSend {
  token: Token;
  address: Address;
  sentMinor: bigint;
}

/** Per token and cold address, what peerpay sent there (signed, not reverted). */
async function coldSends(db: Db): Promise<ColdSend[]> {
  const { rows } = await sql<{ token: Token; to_address: string; sent: string }>`
    select c.token, c.to_address, sum(c.amount)::text as sent from cold_transfers c
      join hot_wallet_outbox o on o.purpose = 'cold' and o.reference_id = c.id
     where c.status in ('open', 'confirmed') and o.status <> 'reverted'
     group by c.token, c.to_address
     order by c.token, c.to_address
     limit ${MAX_COLD_ADDRESSES * TOKENS.length + 1}`.execute(db);
  if (rows.length > MAX_COLD_ADDRESSES * TOKENS.length)
    throw new Error(`custody check: more than ${MAX_COLD_ADDRESSES} cold addresses; the check needs another way to read them`);
  return rows.map((r) => ({ token: r.token, address: r.to_address as Address, sentMinor: BigInt(r.sent) }));
}

/**
 * Tokens at the cold addresses that are peerpay's custody: per address, what was sent there less
 * what came back, but at most what the address holds at `blockNumber`.
 */
async function coldHeldMinor(
  deps: CustodyCheckDeps,
  input: { sends: readonly ColdSend[]; returned: ReadonlyMap<string, bigint>; blockNumber: bigint },
): Promise<bigint> {
  let total = 0n;
  for (const send of input.sends) {
    const owed = send.sentMinor - (input.returned.get(returnKey(send.token, send.address)) ?? 0n);
    if (owed <= 0n) continue;
    const held = await holdingsAt(deps, { token: send.token, holders: [send.address], blockNumber: input.blockNumber });
    total += held < owed ? held : owed;
  }
  return total;
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

async function holdingsAt(
  deps: CustodyCheckDeps,
  input: { token: Token; holders: readonly Address[]; blockNumber: bigint },
): Promise<bigint> {
  const tokenAddress = deps.chain.tokens[input.token];
  let total = 0n;
  for (let i = 0; i < input.holders.length; i += READ_CONCURRENCY) {
    const page = input.holders.slice(i, i + READ_CONCURRENCY);
    const balances = await Promise.all(
      page.map((holder) => deps.chain.chain.getTokenBalance({ token: tokenAddress, holder, blockNumber: input.blockNumber })),
    );
    for (const balance of balances) {
      assert(balance >= 0n, 'a token balance is not negative');
      total += balance;
    }
  }
  return total;
}

async function recordResults(db: Db, results: readonly CustodyResult[]): Promise<void> {
  const rows = results.map(
    (r) => sql`(${r.token}, ${String(r.booksMinor)}::numeric, ${String(r.chainMinor)}::numeric, ${r.blockNumber}::bigint, ${r.ok}, now())`,
  );
  await sql`
    insert into custody_checks (token, books_minor, chain_minor, block_number, ok, checked_at)
    values ${sql.join(rows)}
    on conflict (token) do update
       set books_minor = excluded.books_minor, chain_minor = excluded.chain_minor,
           block_number = excluded.block_number, ok = excluded.ok, checked_at = excluded.checked_at`.execute(db);
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
