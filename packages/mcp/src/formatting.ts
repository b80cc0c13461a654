// Amounts and user text as the tools read and write them: a positive decimal from what the model
// sent, and someone's own words (a name, a note) quoted so they never read as peerpay's.
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** A positive decimal string from a string or a JSON number (through its shortest form); null otherwise. */
export function decimalOf(value: string | number): string | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (!DECIMAL.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  const result = trimmed ? `${whole}.${trimmed}` : whole!;
  return /^0(\.0*)?$/.test(result) ? null : result;
}

/** User-supplied text (a name, a note, a phone number) as a JSON string: in quotes, with any quote inside escaped. */
export function quoted(text: string): string {
  return JSON.stringify(text);
}
