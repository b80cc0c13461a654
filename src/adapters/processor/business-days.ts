// Bank settlement counts business days: Monday to Friday, in UTC. Holidays are not modelled; the
// sandbox bank is open every weekday.
const DAY_MS = 24 * 3600 * 1000;
/** A bound on the loop: no caller asks for more business days than this. */
const MAX_BUSINESS_DAYS = 366;

/** The same time of day, `days` business days after `from` (Saturdays and Sundays are skipped). */
export function addBusinessDays(from: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 0 || days > MAX_BUSINESS_DAYS) throw new RangeError(`business days out of range: ${days}`);
  let at = from.getTime();
  let left = days;
  while (left > 0) {
    at += DAY_MS;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return new Date(at);
}
