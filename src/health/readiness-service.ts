// Whether this process should be sent traffic (GET /health/ready): its database answers, its chain
// answers a cheap RPC within a short timeout, the books-against-custody check is not failing
// (DESIGN §15), the hot wallet has gas above HOT_WALLET_MIN_GAS_WEI (decision 0019: without gas no
// withdrawal or sweep moves), and it is not draining. Every check runs at once, each bounded by its own timeout,
// so a hanging dependency makes the answer "not ready" in about READY_CHECK_TIMEOUT_MS, never a hang.
//
// The answer is public (a load balancer reads it): it says which checks pass or fail, and since
// when, but never a figure (no amount, gas balance, shortfall, block number, address or limit).
// The figures are for the operator: GET /admin/treasury, the metrics and the logs.
import { sql } from 'kysely';
import { readCustodyStatus } from '../books/custody-status.js';
import { TimeoutError, withTimeout } from '../platform/with-timeout.js';
import { readGasStatus } from '../stablecoin/treasury/gas-status.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Lifecycle } from '../platform/lifecycle.js';

/** How long one dependency may take to answer a readiness check. */
export const READY_CHECK_TIMEOUT_MS = 2000;

export const READINESS_CHECKS = ['database', 'chain', 'custody', 'gas', 'draining'] as const;
export type ReadinessCheckName = (typeof READINESS_CHECKS)[number];

export interface CheckResult {
  status: 'pass' | 'fail';
  /** What failed, or what a pass means when it is not plain (no custody check yet). Never a secret, never a figure. */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<ReadinessCheckName, CheckResult>;
  failing: ReadinessCheckName[];
}

type ReadinessDeps = { db: Db; chain: ChainConnection; lifecycle: Lifecycle; wallets: WalletProvider; config: Config };

export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const [database, chain, custody, gas] = await Promise.all([
    guarded('the database', () => deps.db.executeQuery(sql`select 1`.compile(deps.db)).then(() => pass())),
    guarded('the chain', () => deps.chain.chain.getBlockNumber().then(() => pass())),
    guarded('the custody check', () => custodyCheck(deps)),
    guarded('the gas balance', () => gasCheck(deps)),
  ]);
  const draining: CheckResult = deps.lifecycle.draining ? { status: 'fail', detail: 'this process is draining: it stops soon' } : pass();
  const checks = { database, chain, custody, gas, draining };
  const failing = READINESS_CHECKS.filter((name) => checks[name].status === 'fail');
  return { ready: failing.length === 0, checks, failing };
}

const pass = (detail?: string): CheckResult => (detail === undefined ? { status: 'pass' } : { status: 'pass', detail });

/** A check that throws or takes longer than READY_CHECK_TIMEOUT_MS fails, naming why (no URL, no secret, no figure). */
async function guarded(what: string, check: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await withTimeout(check(), READY_CHECK_TIMEOUT_MS, what);
  } catch (error) {
    const reason = error instanceof TimeoutError ? `${what} did not answer in time` : `${what} failed (${errorKind(error)})`;
    return { status: 'fail', detail: reason };
  }
}

/** The error's class or code only: messages of database and RPC errors can carry URLs with keys. */
function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'error';
}

/**
 * A custody check older than this has not completed for a while (it runs every minute): the chain
 * or the check's own scan fails it (the job's errors in the log say why). Said, not failed: a
 * check that cannot run is not a shortfall, and failing every process's readiness over it would
 * take the whole service down. peerpay_custody_checked_timestamp_seconds is there to alert on.
 */
const CUSTODY_CHECK_STALE_MS = 10 * 60_000;

async function custodyCheck(deps: ReadinessDeps): Promise<CheckResult> {
  const status = await readCustodyStatus(deps.db);
  if (status.ok) {
    if (status.checkedAt === null) return pass('not checked yet');
    // checked_at is the database's wall clock (now()), never sandbox time: compared with the wall clock.
    if (Date.now() - status.checkedAt.getTime() <= CUSTODY_CHECK_STALE_MS) return pass();
    return pass(
      `the last completed check (${status.checkedAt.toISOString()}) found no shortfall; ` +
        'none has completed since: see the custody-check job in the log',
    );
  }
  const failing = status.failing.map((f) => `${f.token} since ${f.since.toISOString()}`).join(', ');
  return { status: 'fail', detail: `custody check failing: the books exceed chain custody for ${failing}` };
}

async function gasCheck(deps: ReadinessDeps): Promise<CheckResult> {
  const gas = await readGasStatus(deps);
  if (!gas.low) return pass();
  return { status: 'fail', detail: "the hot wallet's gas is below HOT_WALLET_MIN_GAS_WEI: top it up" };
}
