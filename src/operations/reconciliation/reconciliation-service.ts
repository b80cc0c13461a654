// Reconciliation (DESIGN §18), built once by the composition root: for each UTC day of a range and
// each fiat currency, the processor's balance movements (Stripe's balance transactions, paged)
// against the ledger's processor clearing bookings; and per token, chain custody against the books.
import type { PaymentProcessor } from '../../adapters/processor/payment-processor.js';
import type { Db } from '../../db/database.js';
import { FIAT_CURRENCIES } from '../../money/assets.js';
import { readClearingBookings } from './clearing-bookings.js';
import { compareClearing } from './compare-clearing.js';
import { readCustodyAgainstBooks } from './custody-against-books.js';
import type { ProcessorDaySummary, ReconciliationLine, ReconciliationReport } from './reconciliation-lines.js';

/** The longest range one report reads: each day is one paged processor read per currency. */
export const MAX_RECONCILIATION_DAYS = 31;

const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface Reconciliation {
  /** `from` and `to` are UTC days (YYYY-MM-DD), both included. */
  report(range: { from: string; to: string }): Promise<ReconciliationReport>;
}

export class ReconciliationRangeError extends Error {
  override name = 'ReconciliationRangeError';
}

/** The days of a range, checked: well-formed, in order, at most MAX_RECONCILIATION_DAYS. */
export function daysOf(range: { from: string; to: string }): string[] {
  const start = DAY.test(range.from) ? Date.parse(`${range.from}T00:00:00Z`) : NaN;
  const end = DAY.test(range.to) ? Date.parse(`${range.to}T00:00:00Z`) : NaN;
  if (Number.isNaN(start) || Number.isNaN(end)) throw new ReconciliationRangeError('Days are written YYYY-MM-DD.');
  if (end < start) throw new ReconciliationRangeError('The range ends before it starts.');
  const count = (end - start) / DAY_MS + 1;
  if (count > MAX_RECONCILIATION_DAYS) throw new ReconciliationRangeError(`A report covers at most ${MAX_RECONCILIATION_DAYS} days.`);
  return Array.from({ length: count }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

export function createReconciliation(deps: { db: Db; processor: Pick<PaymentProcessor, 'balanceMovements'> }): Reconciliation {
  return {
    async report(range) {
      const days: ProcessorDaySummary[] = [];
      const lines: ReconciliationLine[] = [];
      for (const day of daysOf(range)) {
        const from = new Date(`${day}T00:00:00Z`);
        const to = new Date(from.getTime() + DAY_MS);
        for (const currency of FIAT_CURRENCIES) {
          const movements = await deps.processor.balanceMovements({ currency, from, to });
          const bookings = await readClearingBookings(deps.db, { currency, from, to });
          if (movements.length === 0 && bookings.length === 0) continue;
          const compared = compareClearing({ day, currency, movements, bookings });
          days.push(compared.summary);
          lines.push(...compared.lines);
        }
      }
      const custody = await readCustodyAgainstBooks(deps.db);
      return { from: range.from, to: range.to, days, custody: custody.custody, lines: [...lines, ...custody.lines] };
    },
  };
}
