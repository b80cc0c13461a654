// What the operator sees of the treasury (GET /admin/treasury and the peerpay_treasury_* metrics),
// read afresh: the hot wallet's tokens and gas at the newest block, what the outbox has committed to
// send, what went cold, the books (custody, users' balances, fees) from the ledger, the last
// books-against-custody check (which read every deposit address at one block; too costly to repeat
// per request), and the withdrawals waiting for the hot wallet with the age of the oldest.
import { sql } from 'kysely';
import type { Address } from 'viem';
import type { Db } from '../../db/database.js';
import { TOKENS, type Token } from '../../money/assets.js';
import { readGasStatus, type GasStatus } from './gas-status.js';
import { committedOutflowMinor } from './hot-wallet-liquidity.js';
import { coldReturnedMinor, coldSentMinor } from './cold-transfers-repository.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Clock } from '../../platform/clock.js';

export interface TokenTreasury {
  token: Token;
  hotWalletMinor: bigint;
  /** Signed by the outbox, not yet seen mined: about to leave the hot wallet. */
  committedMinor: bigint;
  coldSentMinor: bigint;
  /** Sent back from the cold addresses to peerpay's addresses, as far as the custody check's scan has read (decision 0025). */
  coldReturnedMinor: bigint;
  /** The ledger: what peerpay holds on chain for others, once withdrawals under way have left. */
  booksCustodyMinor: bigint;
  /** The last custody check: what the chain held (hot wallet, deposit addresses, cold sent), and when. */
  lastCheck: { chainMinor: bigint; booksMinor: bigint; ok: boolean; blockNumber: bigint; checkedAt: Date } | null;
  userBalancesMinor: bigint;
  feesMinor: bigint;
  waitingWithdrawals: number;
  oldestWaitingSeconds: number | null;
  /** Waiting longer than WITHDRAWAL_WAIT_ALERT_MS. */
  overdueWithdrawals: number;
  floorMinor: bigint | null;
  ceilingMinor: bigint | null;
}

export interface TreasuryView {
  hotWallet: Address;
  coldAddress: Address | null;
  gas: GasStatus;
  tokens: TokenTreasury[];
}

type ViewDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; config: Config; clock: Clock };

export async function readTreasury(deps: ViewDeps): Promise<TreasuryView> {
  const tokens: TokenTreasury[] = [];
  for (const token of TOKENS) tokens.push(await readToken(deps, token));
  return {
    hotWallet: deps.wallets.hotWallet.address,
    coldAddress: deps.config.treasury.coldAddress ?? null,
    gas: await readGasStatus(deps),
    tokens,
  };
}

async function readToken(deps: ViewDeps, token: Token): Promise<TokenTreasury> {
  const hotWalletMinor = await deps.chain.chain.getTokenBalance({
    token: deps.chain.tokens[token],
    holder: deps.wallets.hotWallet.address,
  });
  const books = await ledgerFigures(deps.db, token);
  const nowMs = deps.clock.now().getTime();
  const waiting = await waitingWithdrawals(deps.db, { token, overdueBefore: new Date(nowMs - deps.config.treasury.withdrawalWaitAlertMs) });
  const check = await deps.db
    .selectFrom('custody_checks')
    .select(['books_minor', 'chain_minor', 'ok', 'block_number', 'checked_at'])
    .where('token', '=', token)
    .executeTakeFirst();
  return {
    token,
    hotWalletMinor,
    committedMinor: await committedOutflowMinor(deps.db, token),
    coldSentMinor: await coldSentMinor(deps.db, token),
    coldReturnedMinor: await coldReturnedMinor(deps.db, { token, hotWallet: deps.wallets.hotWallet.address }),
    ...books,
    lastCheck: check
      ? {
          chainMinor: BigInt(check.chain_minor),
          booksMinor: BigInt(check.books_minor),
          ok: check.ok,
          blockNumber: BigInt(check.block_number),
          checkedAt: new Date(check.checked_at),
        }
      : null,
    waitingWithdrawals: waiting.count,
    overdueWithdrawals: waiting.overdue,
    oldestWaitingSeconds: waiting.oldest === null ? null : Math.max(0, Math.round((nowMs - waiting.oldest.getTime()) / 1000)),
    floorMinor: deps.config.treasury.minMinor[token] ?? null,
    ceilingMinor: deps.config.treasury.maxMinor[token] ?? null,
  };
}

async function ledgerFigures(db: Db, token: Token): Promise<Pick<TokenTreasury, 'booksCustodyMinor' | 'userBalancesMinor' | 'feesMinor'>> {
  const { rows } = await sql<{ custody: string | null; users: string | null; fees: string | null }>`
    select
      (select -(balance + pending_credits) from ledger_accounts where code = ${`platform:chain_custody:${token}`})::text as custody,
      (select sum(balance) from ledger_accounts where owner_account_id is not null and asset = ${token})::text as users,
      (select sum(balance) from ledger_accounts where kind = 'fees' and owner_account_id is null and asset = ${token})::text as fees`.execute(
    db,
  );
  const row = rows[0]!;
  return {
    booksCustodyMinor: BigInt(row.custody ?? '0'),
    userBalancesMinor: BigInt(row.users ?? '0'),
    feesMinor: BigInt(row.fees ?? '0'),
  };
}

async function waitingWithdrawals(
  db: Db,
  input: { token: Token; overdueBefore: Date },
): Promise<{ count: number; overdue: number; oldest: Date | null }> {
  const { rows } = await sql<{ n: string; overdue: string; oldest: Date | string | null }>`
    select count(*)::text as n, count(*) filter (where w.created_at < ${input.overdueBefore})::text as overdue,
           min(w.created_at) as oldest from withdrawals w
     where w.status = 'pending' and w.currency = ${input.token} and w.waiting_since is not null
       and not exists (select 1 from hot_wallet_outbox o where o.purpose = 'withdrawal' and o.reference_id = w.id)`.execute(db);
  const row = rows[0]!;
  return { count: Number(row.n), overdue: Number(row.overdue), oldest: row.oldest === null ? null : new Date(row.oldest) };
}
