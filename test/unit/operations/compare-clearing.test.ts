// Reconciliation's comparison (DESIGN §18): movements and bookings matched by what moved the money;
// disputes at their net (peerpay books the dispute fee), processing fees reported apart; every
// difference one line naming the transaction or booking; the CSV exact and safe for spreadsheets.
import { describe, expect, it } from 'vitest';
import type { ProcessorBalanceMovement } from '../../../src/adapters/processor/payment-processor.js';
import type { ClearingBooking } from '../../../src/operations/reconciliation/clearing-bookings.js';
import { compareClearing } from '../../../src/operations/reconciliation/compare-clearing.js';
import { reconciliationCsv } from '../../../src/operations/reconciliation/reconciliation-csv.js';
import { daysOf, ReconciliationRangeError } from '../../../src/operations/reconciliation/reconciliation-service.js';

const at = new Date('2026-11-26T10:00:00Z');
const movement = (ref: string, type: string, category: string, amount: bigint, fee: bigint, source: string): ProcessorBalanceMovement => ({
  ref,
  type,
  category,
  currency: 'USD',
  amountMinor: amount,
  processorFeeMinor: fee,
  createdAt: at,
  sourceRef: source,
});
const booking = (id: bigint, operationId: string, amount: bigint, source: string | null): ClearingBooking => ({
  id,
  operationId,
  code: 'x',
  amountMinor: amount,
  createdAt: at,
  sourceRef: source,
});

const movements = [
  movement('txn_1', 'charge', 'charge', 4000n, 146n, 'pi_1'),
  movement('txn_2', 'refund', 'refund', -1000n, 0n, 're_1'),
  movement('txn_3', 'adjustment', 'dispute', -3000n, 1500n, 'dp_1'),
  movement('txn_4', 'transfer', 'transfer', -2500n, 0n, 'tr_1'),
];
const bookings = [
  booking(1n, 'fiat:ft_1', 3960n, 'pi_1'),
  booking(2n, 'fiat:ft_1', 40n, 'pi_1'),
  booking(3n, 'refund:rf_1', -1000n, 're_1'),
  booking(4n, 'dispute:dp_a', -3000n, 'dp_1'),
  booking(5n, 'dispute:dp_a', -1500n, 'dp_1'),
  booking(6n, 'payout:po_1:paid', -2500n, 'tr_1'),
];

describe('compareClearing', () => {
  it('a day that agrees: no line; the totals and the unbooked processing fees', () => {
    const { summary, lines } = compareClearing({ day: '2026-11-26', currency: 'USD', movements, bookings });
    expect(lines).toEqual([]);
    expect(summary).toEqual({
      day: '2026-11-26',
      currency: 'USD',
      movements: 4,
      bookings: 6,
      expectedMinor: -4000n,
      foundMinor: -4000n,
      unbookedProcessorFeesMinor: 146n,
    });
  });

  it('each kind of difference is one line naming the transaction or the booking', () => {
    const { lines } = compareClearing({
      day: '2026-11-26',
      currency: 'USD',
      movements: [...movements.filter((m) => m.ref !== 'txn_4'), movement('txn_5', 'refund', 'refund', -700n, 0n, 're_2')],
      // The fee leg of the charge is missing; a write-off names no processor record.
      bookings: [...bookings.filter((b) => b.id !== 2n), booking(9n, 'write-off:1', -5n, null)],
    });
    expect(lines).toEqual([
      {
        day: '2026-11-26',
        asset: 'USD',
        kind: 'processor',
        subject: 'txn_1 (charge pi_1); booking 1 (fiat:ft_1 x)',
        expectedMinor: 4000n,
        foundMinor: 3960n,
        note: 'the processor and the books disagree on the amount',
      },
      expect.objectContaining({
        subject: 'txn_5 (refund re_2)',
        expectedMinor: -700n,
        foundMinor: 0n,
        note: 'at the processor, not in the books',
      }),
      expect.objectContaining({
        subject: 'booking 6 (payout:po_1:paid x)',
        expectedMinor: 0n,
        foundMinor: -2500n,
        note: 'in the books, not at the processor',
      }),
      expect.objectContaining({ subject: 'booking 9 (write-off:1 x)', expectedMinor: 0n, foundMinor: -5n }),
    ]);
  });
});

describe('compareClearing over days', () => {
  it('a charge the processor recorded before midnight and peerpay booked after it is matched, not two lines', () => {
    const before = { ...movement('txn_7', 'charge', 'charge', 500n, 0n, 'pi_7'), createdAt: new Date('2026-11-26T23:59:59.900Z') };
    const after = { ...booking(7n, 'fiat:ft_7', 500n, 'pi_7'), createdAt: new Date('2026-11-27T00:00:00.200Z') };
    expect(compareClearing({ day: '2026-11-26', currency: 'USD', movements: [before], bookings: [after] }).lines).toEqual([]);
  });

  it('a difference is reported on the day of its earliest member', () => {
    const late = { ...booking(8n, 'fiat:ft_8', 900n, 'pi_8'), createdAt: new Date('2026-11-27T09:00:00Z') };
    const { lines } = compareClearing({ day: '2026-11-26', currency: 'USD', movements: [], bookings: [late] });
    expect(lines).toEqual([expect.objectContaining({ day: '2026-11-27', subject: 'booking 8 (fiat:ft_8 x)', foundMinor: 900n })]);
  });
});

describe('reconciliationCsv', () => {
  it('exact decimal amounts, quoted cells, and no formula a spreadsheet would run', () => {
    const csv = reconciliationCsv([
      {
        day: '2026-11-26',
        asset: 'USD',
        kind: 'processor',
        subject: '=HYPERLINK("x"), b',
        expectedMinor: -700n,
        foundMinor: 0n,
        note: 'n',
      },
      {
        day: '2026-11-26',
        asset: 'USDC',
        kind: 'custody',
        subject: 'block 7',
        expectedMinor: 10_000_001n,
        foundMinor: 10_000_000n,
        note: 'n',
      },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'day,asset,kind,subject,expected,found,difference,note',
      `2026-11-26,USD,processor,"'=HYPERLINK(""x""), b",-7.00,0.00,7.00,n`,
      '2026-11-26,USDC,custody,block 7,10.000001,10.000000,-0.000001,n',
      '',
    ]);
  });
});

describe('daysOf', () => {
  it('the days of a range, both ends included; a malformed, reversed or too long range is refused', () => {
    expect(daysOf({ from: '2026-02-27', to: '2026-03-01' })).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(() => daysOf({ from: '2026-3-1', to: '2026-03-01' })).toThrow(ReconciliationRangeError);
    expect(() => daysOf({ from: '2026-03-02', to: '2026-03-01' })).toThrow('The range ends before it starts.');
    expect(() => daysOf({ from: '2026-01-01', to: '2026-02-01' })).toThrow('at most 31 days');
  });
});
