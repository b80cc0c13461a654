// The fiat transfers service (DESIGN §21): sending and quoting, balances, and the rounds that carry
// transfers on (bank-debit settlement, recovery of orphans), built once over what they use.
import {
  quoteFiatTransfer,
  sendTransfer,
  type FiatQuote,
  type FiatQuoteInput,
  type SendTransferInput,
  type SentTransfer,
} from './fiat-transfer-service.js';
import { fiatBalances, type FiatBalance } from './fiat-balances.js';
import { settleDueTransfers } from './ach-settlement.js';
import { recoverOrphanedTransfers } from './transfer-recovery.js';
import type { CardCredits } from './card-credit-batch.js';
import type { TransferIntents } from './transfer-intent-batch.js';
import type { CardSends } from './card-send-batch.js';
import { coalescedStandings } from './transfer-standing.js';
import type { AccountLookups } from '../accounts/account-lookups.js';
import type { PaymentProcessor } from '../adapters/processor/payment-processor.js';
import type { AccountLimits } from '../compliance/limits/limits-service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface FiatTransfersDeps {
  db: Db;
  clock: Clock;
  config: Config;
  processor: PaymentProcessor;
  limits: AccountLimits;
  accountLookups: AccountLookups;
  /** The group commit that credits card transfers (card-credit-batch.ts); without it, each alone. */
  cardCredits?: CardCredits;
  /** The group commit that records transfer intents (transfer-intent-batch.ts); without it, each alone. */
  transferIntents?: TransferIntents;
  /** The group commit that writes a sandbox card transfer whole (card-send-batch.ts); without it, the two steps above. */
  cardSends?: CardSends;
}

export interface FiatTransfers {
  send(input: SendTransferInput): Promise<SentTransfer>;
  quote(input: FiatQuoteInput): Promise<FiatQuote>;
  balances(accountId: number, read?: Parameters<typeof fiatBalances>[2]): Promise<FiatBalance[]>;
  /** One round of bank-debit settlement: up to `limit` transfers due; answers how many. */
  settleDue(limit: number): Promise<number>;
  /** One round of recovery of transfers a process left half done; answers how many. */
  recoverOrphaned(limit: number): Promise<number>;
}

export function createFiatTransfers(deps: FiatTransfersDeps): FiatTransfers {
  // The senders' standings of one turn read together, owned by this service (DESIGN §21).
  const sending = { ...deps, standings: coalescedStandings(deps.db) };
  return {
    send: (input) => sendTransfer(sending, input),
    quote: (input) => quoteFiatTransfer(deps, input),
    balances: (accountId, read) => fiatBalances(deps, accountId, read),
    settleDue: (limit) => settleDueTransfers(deps, limit),
    recoverOrphaned: (limit) => recoverOrphanedTransfers(deps, limit),
  };
}
