// Names of ledger accounts. A user's money in one asset is one `available` account; platform
// accounts mirror money held outside peerpay's books (processor clearing, chain custody) and may
// therefore go negative, which is how the sum of every asset's balances stays zero.
import { randomInt } from 'node:crypto';
import type { Asset } from '../money/assets.js';

export type PlatformAccountKind = 'fees' | 'processor_clearing' | 'chain_custody' | 'x402_revenue' | 'losses' | 'blocked_deposits';

/** A user's money: `available` to spend, or `held` (received by card, released after the hold, DESIGN §16). */
export type UserAccountKind = 'available' | 'held';

export type LedgerAccountKey =
  | { readonly owner: number; readonly kind: UserAccountKind; readonly asset: Asset }
  | { readonly platform: PlatformAccountKind; readonly asset: Asset; readonly shard?: number }
  /**
   * What one user owes peerpay in one asset (DESIGN §16): a platform account (peerpay's claim on
   * the user), negative by what is owed, so that no user account ever goes below zero.
   */
  | { readonly receivableOf: number; readonly asset: Asset };

/**
 * The platform's fees of one asset are kept in this many rows (shards), so that concurrent
 * transactions crediting fees do not all wait for one row's lock through each other's commits.
 * Shard 0 is the original `platform:fees:<asset>` account; anything that reads the fees reads the
 * sum of the rows of kind `fees` (the ledger invariants sum every row of an asset anyway).
 */
export const FEE_SHARDS = 16;

const MAY_GO_NEGATIVE: Record<PlatformAccountKind, boolean> = {
  fees: false,
  x402_revenue: false,
  processor_clearing: true,
  chain_custody: true,
  // What peerpay lost (dispute fees, written-off debts): negative by the sum of the losses.
  losses: true,
  // Deposits from sanctioned senders, owed to nobody until an operator releases them (decision 0037).
  blocked_deposits: false,
};

export function userAvailable(owner: number, asset: Asset): LedgerAccountKey {
  return { owner, kind: 'available', asset };
}

export function userHeld(owner: number, asset: Asset): LedgerAccountKey {
  return { owner, kind: 'held', asset };
}

export function receivableOf(debtor: number, asset: Asset): LedgerAccountKey {
  return { receivableOf: debtor, asset };
}

export function platformAccount(platform: PlatformAccountKind, asset: Asset): LedgerAccountKey {
  return { platform, asset };
}

export interface LedgerAccountSpec {
  code: string;
  ownerAccountId: number | null;
  kind: string;
  asset: Asset;
  allowNegative: boolean;
}

/**
 * The fees account of `asset` in a shard picked at random: for an operation in a transaction of
 * its own, so that concurrent ones rarely queue on one fees row. Whatever later resolves its
 * pending transfers names them by id, so it finds the same shard.
 */
export function someFeeShard(asset: Asset): LedgerAccountKey {
  return { platform: 'fees', asset, shard: randomInt(FEE_SHARDS) };
}

/** `key`, or, for the fees account, the same account in `shard` (0 to FEE_SHARDS - 1). */
export function inShard(key: LedgerAccountKey, shard: number): LedgerAccountKey {
  if (!('platform' in key) || key.platform !== 'fees') return key;
  return { ...key, shard: ((shard % FEE_SHARDS) + FEE_SHARDS) % FEE_SHARDS };
}

export function specOf(key: LedgerAccountKey): LedgerAccountSpec {
  if ('receivableOf' in key) {
    return {
      code: `platform:receivable:${key.asset}:${key.receivableOf}`,
      ownerAccountId: null,
      kind: 'receivable',
      asset: key.asset,
      allowNegative: true,
    };
  }
  if ('owner' in key) {
    return {
      code: `user:${key.owner}:${key.kind}:${key.asset}`,
      ownerAccountId: key.owner,
      kind: key.kind,
      asset: key.asset,
      allowNegative: false,
    };
  }
  const shard = key.shard ?? 0;
  return {
    code: shard === 0 ? `platform:${key.platform}:${key.asset}` : `platform:${key.platform}:${key.asset}:${shard}`,
    ownerAccountId: null,
    kind: key.platform,
    asset: key.asset,
    allowNegative: MAY_GO_NEGATIVE[key.platform],
  };
}
