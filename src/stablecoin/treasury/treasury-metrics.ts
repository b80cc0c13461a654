// The treasury as Prometheus gauges, read when /metrics is scraped: the gauges of one scrape are
// collected at once and share the one read under way; the next scrape reads afresh. A scrape that
// cannot read it sets NaN, never a stale value.
import { Gauge, type Registry } from 'prom-client';
import { readTreasury, type TokenTreasury, type TreasuryView } from './treasury-view.js';
import type { ChainConnection } from '../../adapters/chain/connect-chain.js';
import type { WalletProvider } from '../../adapters/wallet/wallet-provider.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';

type TreasuryDeps = { db: Db; chain: ChainConnection; wallets: WalletProvider; config: Config; clock: Clock };
type Single = (name: string, help: string, read: (v: TreasuryView) => number) => void;
type PerToken = (name: string, help: string, read: (t: TokenTreasury) => number | null) => void;

export function registerTreasuryMetrics(registry: Registry, deps: TreasuryDeps): void {
  const view = sharedRead(deps);
  const single: Single = (name, help, read) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const v = await view();
        this.set(v ? read(v) : NaN);
      },
    });
  const perToken: PerToken = (name, help, read) =>
    new Gauge({
      name,
      help,
      labelNames: ['token'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const v = await view();
        for (const t of v?.tokens ?? []) this.set({ token: t.token }, read(t) ?? NaN);
      },
    });
  registerGasGauges(single);
  registerTokenGauges(perToken);
  registerWithdrawalGauges(perToken);
}

/** One treasury read shared by the gauges of a scrape; the next scrape starts a fresh one. */
function sharedRead(deps: TreasuryDeps): () => Promise<TreasuryView | null> {
  let underWay: Promise<TreasuryView | null> | null = null;
  return () => {
    if (!underWay) {
      const read = readTreasury(deps).catch(() => null);
      underWay = read;
      void read.finally(() => {
        if (underWay === read) underWay = null;
      });
    }
    return underWay;
  };
}

function registerGasGauges(single: Single): void {
  single('peerpay_hot_wallet_gas_wei', "The hot wallet's native balance (gas), in wei", (v) => Number(v.gas.balanceWei));
  single('peerpay_hot_wallet_gas_low', '1 when the hot wallet holds less gas than HOT_WALLET_MIN_GAS_WEI', (v) => (v.gas.low ? 1 : 0));
}

function registerTokenGauges(perToken: PerToken): void {
  perToken('peerpay_treasury_hot_wallet_minor', "The hot wallet's token balance, minor units", (t) => Number(t.hotWalletMinor));
  perToken('peerpay_treasury_committed_minor', 'Tokens the outbox has signed to send and the chain has not yet taken, minor units', (t) =>
    Number(t.committedMinor),
  );
  perToken(
    'peerpay_treasury_below_floor',
    '1 when what the hot wallet can still pay out is below HOT_WALLET_MIN_<TOKEN> (0 without a floor)',
    (t) => (t.floorMinor !== null && t.hotWalletMinor - t.committedMinor < t.floorMinor ? 1 : 0),
  );
  perToken('peerpay_treasury_cold_sent_minor', 'Tokens sent to the cold address (signed, not reverted), minor units', (t) =>
    Number(t.coldSentMinor),
  );
  perToken(
    'peerpay_treasury_cold_returned_minor',
    "Tokens sent back from the cold addresses to peerpay's addresses, in confirmed blocks the custody check has read, minor units",
    (t) => Number(t.coldReturnedMinor),
  );
  perToken('peerpay_treasury_books_custody_minor', 'What the ledger says peerpay holds on chain, minor units', (t) =>
    Number(t.booksCustodyMinor),
  );
  perToken('peerpay_treasury_chain_custody_minor', 'What the chain held at the last custody check, minor units', (t) =>
    t.lastCheck ? Number(t.lastCheck.chainMinor) : null,
  );
  perToken('peerpay_treasury_user_balances_minor', "The total of users' balances, minor units", (t) => Number(t.userBalancesMinor));
  perToken('peerpay_treasury_fees_minor', 'Fees earned (posted), minor units', (t) => Number(t.feesMinor));
}

function registerWithdrawalGauges(perToken: PerToken): void {
  perToken(
    'peerpay_withdrawals_waiting',
    'Withdrawals accepted and waiting for the hot wallet to hold their tokens',
    (t) => t.waitingWithdrawals,
  );
  perToken(
    'peerpay_withdrawals_waiting_oldest_age_seconds',
    'Age of the oldest withdrawal waiting for the hot wallet (0 when none)',
    (t) => t.oldestWaitingSeconds ?? 0,
  );
  perToken('peerpay_withdrawals_waiting_overdue', 'Withdrawals waiting for the hot wallet longer than WITHDRAWAL_WAIT_ALERT_MS', (t) =>
    Number(t.overdueWithdrawals),
  );
}
