// What reconciliation reports (DESIGN §18): per day and currency, the processor's balance
// movements against the ledger's processor clearing; per token, chain custody against the books.
// Every difference is one line naming the transaction or booking, what was expected and what was
// found. Amounts are minor units of `asset`.
import type { Asset } from '../../money/assets.js';

export interface ReconciliationLine {
  /** The UTC day (YYYY-MM-DD) of a processor line; the custody check's day for a custody line. */
  day: string;
  asset: Asset;
  kind: 'processor' | 'custody';
  /** Which transaction(s) or booking(s): the processor's ids, the ledger transfer ids. */
  subject: string;
  /** What the processor (or the chain) says the books should hold. */
  expectedMinor: bigint;
  /** What the books hold. */
  foundMinor: bigint;
  /** Why this is a line, in a sentence. */
  note: string;
}

/** One day and currency, in totals, whether or not anything differs. */
export interface ProcessorDaySummary {
  day: string;
  currency: Asset;
  movements: number;
  bookings: number;
  /** The processor's movements as the books should mirror them. */
  expectedMinor: bigint;
  foundMinor: bigint;
  /** What the processor kept in fees that peerpay does not book (its processing fees). */
  unbookedProcessorFeesMinor: bigint;
}

export interface CustodySummary {
  token: Asset;
  booksMinor: bigint;
  chainMinor: bigint;
  ok: boolean;
  checkedAt: Date;
  blockNumber: bigint;
}

export interface ReconciliationReport {
  from: string;
  /** The last day included. */
  to: string;
  days: ProcessorDaySummary[];
  custody: CustodySummary[];
  lines: ReconciliationLine[];
}
