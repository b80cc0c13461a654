// Names of ledger accounts. A user's money in one asset is one `available` account; platform
// accounts mirror money held outside peerpay's books (processor clearing, chain custody) and may
// therefore go negative, which is how the sum of every asset's balances stays zero.
import type { Asset } from '../money/assets.js';

export type PlatformAccountKind = 'fees' | 'processor_clearing' | 'chain_custody' | 'x402_revenue';

export type LedgerAccountKey =
  | { readonly owner: number; readonly kind: 'available'; readonly asset: Asset }
  | { readonly platform: PlatformAccountKind; readonly asset: Asset };

const MAY_GO_NEGATIVE: Record<PlatformAccountKind, boolean> = {
  fees: false,
  x402_revenue: false,
  processor_clearing: true,
  chain_custody: true,
};

export function userAvailable(owner: number, asset: Asset): LedgerAccountKey {
  return { owner, kind: 'available', asset };
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

export function specOf(key: LedgerAccountKey): LedgerAccountSpec {
  if ('owner' in key) {
    return {
      code: `user:${key.owner}:${key.kind}:${key.asset}`,
      ownerAccountId: key.owner,
      kind: key.kind,
      asset: key.asset,
      allowNegative: false,
    };
  }
  return {
    code: `platform:${key.platform}:${key.asset}`,
    ownerAccountId: null,
    kind: key.platform,
    asset: key.asset,
    allowNegative: MAY_GO_NEGATIVE[key.platform],
  };
}
