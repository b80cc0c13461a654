// Gas for Circle EOA wallets (WALLET_PROVIDER=circle, CIRCLE_ACCOUNT_TYPE=EOA; decision 0046). An
// EOA wallet pays its own gas, and deposit addresses receive only tokens, so before a sweep the
// treasury wallet sends the user's wallet POL: a Circle transfer of the native token through the
// outbox (purpose 'gas'), so recorded and committed before Circle is asked and keyed by the entry's
// id, like the sweeps. The sweep waits until the gas has arrived. The treasury's own gas is the
// operator's to fund: while it holds too little, no top-up is asked for and the sweep just waits.
import { type Address } from 'viem';
import { sendThroughCircle } from '../outbox/circle-outbox.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { CircleWalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

/** Gas a sweep (a Circle ERC-20 transfer from an EOA, about 60,000) is allowed, with margin. */
export const SWEEP_GAS_UNITS = 100_000n;
/** A top-up covers this many sweeps at the node's current fee estimate ... */
export const SWEEPS_PER_TOP_UP = 5n;
/** ... but never more than 0.1 POL: a fee spike does not empty the treasury into deposit wallets. */
export const TOP_UP_CAP_WEI = 10n ** 17n;
/** Top-ups asked for in one sweep round. */
export const TOP_UPS_PER_ROUND = 10;
/** A top-up that failed is asked for again only after this long (no storm of transfers that fail). */
export const FAILED_TOP_UP_RETRY_MS = 10 * 60_000;

type GasDeps = { db: Db; chain: ChainConnection; wallets: CircleWalletProvider; clock: Clock };

/** Top-ups left in this round. */
export interface GasBudget {
  topUps: number;
}

class TopUpOpen extends Error {}

/**
 * True when the wallet holds gas for its sweep now. Otherwise makes sure one top-up is on its way
 * (at most one open per wallet; the n-th top-up of an account is the reference `<id>:<n>`, so a
 * repeated or crashed round finds the same entry and never sends a second) and returns false.
 */
export async function sweepGasReady(deps: GasDeps, wallet: { accountId: number; address: Address }, budget: GasBudget): Promise<boolean> {
  const needWei = SWEEP_GAS_UNITS * (await deps.chain.chain.getMaxFeePerGas());
  if ((await deps.chain.chain.getNativeBalance(wallet.address)) >= needWei) return true;
  const earlier = await gasTopUps(deps.db, wallet.accountId);
  // One on its way: the outbox job follows it to COMPLETE or FAILED.
  if (earlier.some((e) => e.status === 'signed' || e.status === 'broadcast')) return false;
  const last = earlier[earlier.length - 1];
  if (last?.status === 'reverted' && deps.clock.now().getTime() - last.created_at.getTime() < FAILED_TOP_UP_RETRY_MS) return false;
  const amountWei = min(needWei * SWEEPS_PER_TOP_UP, TOP_UP_CAP_WEI);
  // Fees above what the cap can pay for: wait until they fall rather than send gas that cannot help.
  if (budget.topUps <= 0 || amountWei < needWei) return false;
  const treasury = deps.wallets.hotWallet.address;
  if ((await deps.chain.chain.getNativeBalance(treasury)) < amountWei + needWei) return false;
  budget.topUps--;
  try {
    await sendThroughCircle(deps, {
      purpose: 'gas',
      referenceId: `${wallet.accountId}:${earlier.length}`,
      from: { walletId: deps.wallets.circle.treasuryWalletId, address: treasury },
      token: 'POL',
      to: wallet.address,
      amountMinor: amountWei,
      // Under the Circle send lock: another process may have opened one for this wallet meanwhile.
      precondition: async (trx) => {
        if ((await gasTopUps(trx, wallet.accountId)).some((e) => e.status === 'signed' || e.status === 'broadcast')) throw new TopUpOpen();
      },
    });
  } catch (error) {
    if (!(error instanceof TopUpOpen)) throw error;
  }
  return false;
}

async function gasTopUps(db: Pick<Db, 'selectFrom'>, accountId: number) {
  return db
    .selectFrom('hot_wallet_outbox')
    .select(['status', 'created_at'])
    .where('purpose', '=', 'gas')
    .where('reference_id', 'like', `${accountId}:%`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
