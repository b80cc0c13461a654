// Per-account limits (DESIGN §17) that no test reaches unless it means to: the servers and
// processes of the suites that are not about limits send more than a new account may.
import fs from 'node:fs';
import path from 'node:path';

/** A LIMITS_FILE (in `dataDir`) whose limits no test reaches unless it means to. */
export function generousLimitsFile(dataDir: string): string {
  const file = path.join(dataDir, 'generous-limits.json');
  const huge = { day: '1000000000000', month: '1000000000000' };
  const currencies = Object.fromEntries(['USD', 'EUR', 'GBP', 'JPY', 'USDC', 'EURC'].map((c) => [c, huge]));
  fs.writeFileSync(file, JSON.stringify({ currencies, newAccounts: { divisor: 1 } }), { mode: 0o600 });
  return file;
}
