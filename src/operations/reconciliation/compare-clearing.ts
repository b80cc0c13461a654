// Compares one day and currency of the processor's balance movements with the ledger's clearing
// bookings, grouped by what moved the money (a charge's PaymentIntent, a refund, a dispute, a
// payout, a reversal). The books mirror each movement's amount, except that peerpay books a
// dispute's fee (to losses, DESIGN §16) and never the processor's processing fee on a charge: so a
// dispute is expected at its net, everything else at its amount, and the processing fees are
// reported apart. A group that differs becomes lines: each movement the books lack, each booking
// the processor does not list, or one line for a group whose amounts disagree.
import type { ProcessorBalanceMovement } from '../../adapters/processor/payment-processor.js';
import type { FiatCurrency } from '../../money/assets.js';
import type { ClearingBooking } from './clearing-bookings.js';
import type { ProcessorDaySummary, ReconciliationLine } from './reconciliation-lines.js';

/** What the books should hold of one movement. */
export function bookedPart(movement: ProcessorBalanceMovement): bigint {
  return movement.category === 'dispute' ? movement.amountMinor - movement.processorFeeMinor : movement.amountMinor;
}

interface Group {
  movements: ProcessorBalanceMovement[];
  bookings: ClearingBooking[];
}

export function compareClearing(input: {
  day: string;
  currency: FiatCurrency;
  movements: readonly ProcessorBalanceMovement[];
  bookings: readonly ClearingBooking[];
}): { summary: ProcessorDaySummary; lines: ReconciliationLine[] } {
  const groups = new Map<string, Group>();
  const groupOf = (key: string) => {
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { movements: [], bookings: [] }));
    return group;
  };
  for (const movement of input.movements) groupOf(`source:${movement.sourceRef}`).movements.push(movement);
  // A booking that names no processor record is a group of its own: it can only be a difference.
  for (const booking of input.bookings)
    groupOf(booking.sourceRef ? `source:${booking.sourceRef}` : `booking:${booking.id}`).bookings.push(booking);
  const lines: ReconciliationLine[] = [];
  for (const group of groups.values()) lines.push(...groupLines(groupDay(group, input.day), input.currency, group));
  const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
  return {
    summary: {
      day: input.day,
      currency: input.currency,
      movements: input.movements.length,
      bookings: input.bookings.length,
      expectedMinor: sum(input.movements.map(bookedPart)),
      foundMinor: sum(input.bookings.map((b) => b.amountMinor)),
      unbookedProcessorFeesMinor: sum(input.movements.filter((m) => m.category !== 'dispute').map((m) => m.processorFeeMinor)),
    },
    lines,
  };
}

/**
 * The UTC day a difference is reported on: its earliest member's. Over a range of days a charge the
 * processor recorded just before midnight and peerpay booked just after is one group, not two lines.
 */
function groupDay(group: Group, fallback: string): string {
  const times = [...group.movements.map((m) => m.createdAt.getTime()), ...group.bookings.map((b) => b.createdAt.getTime())];
  return times.length === 0 ? fallback : new Date(Math.min(...times)).toISOString().slice(0, 10);
}

function groupLines(day: string, currency: FiatCurrency, group: Group): ReconciliationLine[] {
  const expected = group.movements.reduce((sum, m) => sum + bookedPart(m), 0n);
  const found = group.bookings.reduce((sum, b) => sum + b.amountMinor, 0n);
  if (expected === found) return [];
  const base = { day, asset: currency, kind: 'processor' as const };
  if (group.bookings.length === 0) {
    return group.movements.map((m) => ({
      ...base,
      subject: movementName(m),
      expectedMinor: bookedPart(m),
      foundMinor: 0n,
      note: 'at the processor, not in the books',
    }));
  }
  if (group.movements.length === 0) {
    return group.bookings.map((b) => ({
      ...base,
      subject: bookingName(b),
      expectedMinor: 0n,
      foundMinor: b.amountMinor,
      note: 'in the books, not at the processor',
    }));
  }
  return [
    {
      ...base,
      subject: [...group.movements.map(movementName), ...group.bookings.map(bookingName)].join('; '),
      expectedMinor: expected,
      foundMinor: found,
      note: 'the processor and the books disagree on the amount',
    },
  ];
}

function movementName(m: ProcessorBalanceMovement): string {
  return `${m.ref} (${m.type} ${m.sourceRef})`;
}

function bookingName(b: ClearingBooking): string {
  return `booking ${b.id} (${b.operationId} ${b.code})`;
}
