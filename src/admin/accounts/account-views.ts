// Accounts as the operator API shows them (GET /admin/accounts, GET /admin/accounts/{id}). The id
// is the account's id as a string: what the routes take and what audit entries name as target.
import { formatMinor } from '../../money/amount.js';
import type { Asset } from '../../money/assets.js';
import { accountTarget } from '../../compliance/freezes/account-freezes.js';
import { presentFreezeForOperators } from '../../compliance/freezes/freeze-views.js';
import type { AccountSummaryRow } from './account-search-repository.js';
import type { AccountDetail } from './account-detail-service.js';

export function presentAccountSummary(row: AccountSummaryRow) {
  return {
    id: accountTarget(row.id),
    email: row.email,
    agentHandle: row.handle,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    frozen: row.frozenScope,
  };
}

const money = (minor: bigint, asset: Asset) => formatMinor(minor, asset);

export function presentAccountDetail(d: AccountDetail) {
  const p = d.profile;
  return {
    id: accountTarget(p.id),
    agentHandle: p.handle,
    email: p.email,
    name: p.name,
    phone: p.phone,
    website: p.website,
    discoverable: p.discoverable,
    stablecoinWalletId: p.walletId,
    depositAddress: p.depositAddress,
    createdAt: p.createdAt.toISOString(),
    paymentMethods: d.paymentMethods,
    frozen: presentFreezeForOperators(p.freeze),
    balances: {
      fiat: d.fiat.map((b) => ({
        currency: b.currency,
        available: money(b.availableMinor, b.currency),
        pending: money(b.pendingMinor, b.currency),
        held: money(b.heldMinor, b.currency),
        owed: money(b.owedMinor, b.currency),
      })),
      stablecoin: d.stablecoin.map((b) => ({
        currency: b.currency,
        available: money(b.availableMinor, b.currency),
        pending: money(b.pendingMinor, b.currency),
      })),
    },
    limits: d.limits,
    openDisputes: d.openDisputes.map((x) => ({
      id: x.id,
      transferId: x.transferId,
      role: x.role,
      currency: x.currency,
      amount: money(x.amountMinor, x.currency as Asset),
      reason: x.reason,
      openedAt: x.openedAt.toISOString(),
    })),
    recentTransfers: presentRecent(d),
    webhookEndpoints: d.webhookEndpoints.map((w) => ({
      id: w.id,
      url: w.url,
      status: w.status,
      failingSince: w.failingSince?.toISOString() ?? null,
      recentFailures: w.recentFailures,
      createdAt: w.createdAt.toISOString(),
    })),
    activeKeys: d.activeKeys,
  };
}

function presentRecent(d: AccountDetail) {
  return {
    fiat: d.recentFiat.map((t) => ({
      id: t.id,
      direction: t.direction,
      amount: money(t.amountMinor, t.currency),
      fee: money(t.feeMinor, t.currency),
      currency: t.currency,
      paymentMethod: t.paymentMethod,
      status: t.status,
      counterpartyHandle: t.direction === 'sent' ? t.recipientHandle : t.senderHandle,
      createdAt: t.createdAt.toISOString(),
    })),
    stablecoin: d.recentStablecoin.map((h) => ({
      id: h.id,
      type: h.type,
      direction: h.direction,
      amount: money(h.amountMinor, h.currency),
      fee: money(h.feeMinor, h.currency),
      currency: h.currency,
      status: h.status,
      counterpartyHandle: h.counterpartyHandle,
      address: h.address,
      createdAt: h.createdAt.toISOString(),
    })),
  };
}
