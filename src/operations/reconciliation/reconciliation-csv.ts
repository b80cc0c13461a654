// A reconciliation report's lines as CSV (RFC 4180): what an operator hands to accounting. Amounts
// are decimal strings of the line's asset, never floats; a cell that a spreadsheet would run as a
// formula (starting = + - @) is prefixed with a quote.
import { formatMinor } from '../../money/amount.js';
import type { ReconciliationLine } from './reconciliation-lines.js';

const HEADER = ['day', 'asset', 'kind', 'subject', 'expected', 'found', 'difference', 'note'];

export function reconciliationCsv(lines: readonly ReconciliationLine[]): string {
  const rows = lines.map((line) => [
    line.day,
    line.asset,
    line.kind,
    line.subject,
    formatMinor(line.expectedMinor, line.asset),
    formatMinor(line.foundMinor, line.asset),
    formatMinor(line.foundMinor - line.expectedMinor, line.asset),
    line.note,
  ]);
  return [HEADER, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

function cell(value: string): string {
  const safe = /^[=+@]/.test(value) || (/^-/.test(value) && !/^-\d/.test(value)) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
