// Reconciliation (DESIGN §18), built once by the composition root: for each UTC day of a range and
// each fiat currency, the processor's balance movements (Stripe's balance transactions, paged)
// against the ledger's processor clearing bookings; and per token, chain custody against the books.
import type { PaymentProcessor } from '../../adapters/processor/payment-processor.js';
import type { Db } from '../../db/database.js';
import { FIAT_CURRENCIES, type FiatCurrency } from '../../money/assets.js';
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
      for (const currency of FIAT_CURRENCIES) {
        const read = await readRange(deps, currency, daysOf(range));
        for (const day of read) if (day.movements.length > 0 || day.bookings.length > 0) days.push(compareClearing(day).summary);
        // The differences over the whole range at once: what moved the money is matched across the
        // days' boundaries, each line reported on its earliest member's day.
        const movements = read.flatMap((d) => d.movements);
        const bookings = read.flatMap((d) => d.bookings);
        lines.push(...compareClearing({ day: range.from, currency, movements, bookings }).lines);
      }
      days.sort(
        (a, b) =>
          a.day.localeCompare(b.day) ||
          FIAT_CURRENCIES.indexOf(a.currency as FiatCurrency) - FIAT_CURRENCIES.indexOf(b.currency as FiatCurrency),
      );
      lines.sort((a, b) => a.day.localeCompare(b.day));
      const custody = await readCustodyAgainstBooks(deps.db);
      return { from: range.from, to: range.to, days, custody: custody.custody, lines: [...lines, ...custody.lines] };
    },
  };
}

/** One currency's processor movements and clearing bookings, a day (one paged read of each) at a time. */
async function readRange(deps: { db: Db; processor: Pick<PaymentProcessor, 'balanceMovements'> }, currency: FiatCurrency, days: string[]) {
  const read = [];
  for (const day of days) {
    const from = new Date(`${day}T00:00:00Z`);
    const to = new Date(from.getTime() + DAY_MS);
    const movements = await deps.processor.balanceMovements({ currency, from, to });
    const bookings = await readClearingBookings(deps.db, { currency, from, to });
    read.push({ day, currency, movements, bookings });
  }
  return read;
}
