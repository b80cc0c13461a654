// Deposits with WALLET_PROVIDER=circle (DESIGN §19): an INBOUND Circle transaction to a user's
// Circle wallet is credited once per Circle transaction id, when its state is COMPLETE, through the
// same ledger path, screening and events as a deposit the chain-log watcher finds. Both the
// notifications (POST /webhooks/circle) and the reconciliation poll bring transactions here; any
// order, repetition or overlap of the two credits each one once (the Circle id and the log are both
// unique keys of the deposit row, which commits with its credit).
//
// The deposit row is the chain's log, found in the block Circle names: its block hash and log
// index are the chain's, so that a credited deposit looks to the sweeps, the custody check and
// the installation identity exactly as one the watcher recorded, and Circle's word alone is never
// credited: a COMPLETE transaction whose log peerpay's node does not have yet is credited on a
// later look (the poll keeps its place for it).
import { getAddress, isAddressEqual, type Address } from 'viem';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { TokenTransferLog } from '../../adapters/chain/chain-adapter.js';
import { circleOutcome, type CircleTransaction } from '../../adapters/circle/circle-port.js';
import type { SanctionsControls } from '../../compliance/sanctions/sanctions-controls.js';
import type { SanctionsScreening } from '../../compliance/sanctions/sanctions-screening.js';
import type { Db } from '../../db/database.js';
import type { Token } from '../../money/assets.js';
import type { Clock } from '../../platform/clock.js';
import { MAX_LEDGER_AMOUNT, recordScreenedDeposit } from './deposit-ledger.js';
import { depositAddressesAmong, depositFromLog } from './deposits-repository.js';
import { accountOfCircleWallet, circleDepositRecorded } from './circle-deposits-repository.js';

/**
 * What became of one Circle transaction. `credited`/`blocked`: recorded now. `duplicate`: recorded
 * before. `under_way`: not COMPLETE yet (nothing changes; a later look credits it). `not_on_chain`:
 * COMPLETE, but peerpay's node does not show its log yet. `ignored`: never a user's deposit (not
 * INBOUND, another wallet such as the treasury's, another token, peerpay's own movement, failed).
 */
export type CircleDepositOutcome = 'credited' | 'blocked' | 'duplicate' | 'under_way' | 'not_on_chain' | 'ignored';

export interface CircleDeposits {
  /** Credits the transaction if it is a user's completed deposit not yet recorded; throws when screening or the chain cannot answer. */
  record(transaction: CircleTransaction): Promise<CircleDepositOutcome>;
}

type CircleDepositsDeps = {
  db: Db;
  chain: ChainConnection;
  clock: Clock;
  sanctions: SanctionsScreening;
  sanctionsControls: SanctionsControls;
  /** The treasury wallet's address: what it sends a user's wallet (a withdrawal to a user's address) is peerpay's own money moving. */
  treasuryAddress: () => Promise<Address | null>;
};

export function createCircleDeposits(deps: CircleDepositsDeps): CircleDeposits {
  return { record: (transaction) => recordCircleDeposit(deps, transaction) };
}

async function recordCircleDeposit(deps: CircleDepositsDeps, tx: CircleTransaction): Promise<CircleDepositOutcome> {
  if (tx.transactionType !== 'INBOUND') return 'ignored';
  const outcome = circleOutcome(tx.state);
  if (outcome === 'failed') return 'ignored';
  // Before COMPLETE nothing is recorded, so a state that arrives late (CONFIRMED after COMPLETE)
  // finds nothing to undo; and a recorded deposit is never changed by a later notification.
  if (await circleDepositRecorded(deps.db, tx.id)) return 'duplicate';
  // Before the state: what never becomes a user's deposit (a sweep arriving at the treasury) does
  // not hold the poll's place while it is under way.
  const target = await depositTarget(deps, tx);
  if (target === null) return 'ignored';
  if (outcome === 'under_way') return 'under_way';
  const logs = await logsOf(deps, tx, target.token);
  if (logs.length === 0) return 'not_on_chain';
  const listed = (await deps.sanctions.screen(getAddress(tx.sourceAddress))) === 'listed';
  // Normally one log. Should one chain transaction carry several identical transfers that Circle
  // names separately, each Circle id takes the first log not yet recorded.
  for (const log of logs) {
    const deposit = depositFromLog(log, {
      accountId: target.accountId,
      token: target.token,
      creditedAt: deps.clock.now(),
      circleTransactionId: tx.id,
    });
    if (await recordScreenedDeposit(deps, deposit, listed)) return listed ? 'blocked' : 'credited';
    if (await circleDepositRecorded(deps.db, tx.id)) return 'duplicate';
  }
  // Every matching log is another Circle transaction's (or the watcher's): nothing to credit twice.
  return 'duplicate';
}

/** The account and token of a user's deposit; null when the transaction is not one. */
async function depositTarget(deps: CircleDepositsDeps, tx: CircleTransaction): Promise<{ accountId: number; token: Token } | null> {
  const account = await accountOfCircleWallet(deps.db, tx.walletId);
  if (!account || !isAddressEqual(account.address, tx.destinationAddress)) return null;
  const token = (['USDC', 'EURC'] as const).find((t) => isAddressEqual(deps.chain.tokens[t], tx.tokenAddress));
  if (token === undefined) return null;
  if (tx.amount <= 0n || tx.amount > MAX_LEDGER_AMOUNT) return null;
  const from = getAddress(tx.sourceAddress);
  // Not deposits: peerpay moving its own custody, from the treasury or another user's wallet.
  const treasury = await deps.treasuryAddress();
  if (treasury !== null && isAddressEqual(treasury, from)) return null;
  if ((await depositAddressesAmong(deps.db, [from])).size > 0) return null;
  return { accountId: account.accountId, token };
}

/** The transaction's Transfer logs of this amount to the wallet, in the block Circle names, in log order. */
async function logsOf(deps: CircleDepositsDeps, tx: CircleTransaction, token: Token): Promise<TokenTransferLog[]> {
  if (tx.txHash === null || tx.blockHeight === null) return [];
  const logs = await deps.chain.chain.getTransferLogs({
    tokens: [deps.chain.tokens[token]],
    recipients: [getAddress(tx.destinationAddress)],
    fromBlock: tx.blockHeight,
    toBlock: tx.blockHeight,
  });
  return logs
    .filter((l) => l.txHash.toLowerCase() === tx.txHash!.toLowerCase() && l.value === tx.amount && isAddressEqual(l.from, tx.sourceAddress))
    .sort((a, b) => a.logIndex - b.logIndex);
}
