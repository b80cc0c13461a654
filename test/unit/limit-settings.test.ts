// LIMITS_FILE (DESIGN §17): what a file changes over the defaults, and the files that refuse the
// start with one line naming the file and what is wrong.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { DEFAULT_LIMITS } from '../../src/config/limit-settings.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-limits-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function fileWith(text: string): string {
  const file = path.join(dir, `limits-${++files}.json`);
  fs.writeFileSync(file, text);
  return file;
}

describe('LIMITS_FILE', () => {
  it('unset (or empty): the defaults, in minor units, a tenth for accounts younger than 7 days', () => {
    for (const env of [{}, { LIMITS_FILE: '' }]) {
      const { limits } = loadConfig(env);
      expect(limits).toBe(DEFAULT_LIMITS);
      expect(limits.limits.USD).toEqual({ day: 1_000_000n, month: 5_000_000n });
      expect(limits.limits.JPY).toEqual({ day: 1_500_000n, month: 7_500_000n });
      expect(limits.limits.USDC).toEqual({ day: 10_000_000_000n, month: 50_000_000_000n });
      expect([limits.newAccountDays, limits.newAccountDivisor]).toEqual([7, 10n]);
    }
  });

  it('changes what it names and keeps the rest', () => {
    const file = fileWith(
      JSON.stringify({ currencies: { EURC: { day: '2500.5' }, JPY: { day: 0, month: 100 } }, newAccounts: { days: 14, divisor: 4 } }),
    );
    const { limits } = loadConfig({ LIMITS_FILE: file });
    expect(limits.limits.EURC).toEqual({ day: 2_500_500_000n, month: 50_000_000_000n });
    expect(limits.limits.JPY).toEqual({ day: 0n, month: 100n });
    expect(limits.limits.USD).toEqual(DEFAULT_LIMITS.limits.USD);
    expect([limits.newAccountDays, limits.newAccountDivisor]).toEqual([14, 4n]);
  });

  it.each([
    ['{"currencies": {"USD": {"day": "10"}', /is not valid JSON/],
    ['[]', /the file must be an object/],
    ['{"limits": {}}', /unknown key "limits"/],
    ['{"currencies": {"CHF": {"day": "10"}}}', /currencies: unknown key "CHF"/],
    ['{"currencies": {"USD": {"daily": "10"}}}', /currencies.USD: unknown key "daily"/],
    ['{"currencies": {"USD": {"day": "ten"}}}', /currencies.USD.day is not an amount/],
    ['{"currencies": {"USD": {"day": "-5"}}}', /currencies.USD.day is not an amount/],
    ['{"currencies": {"USD": {"day": "10.001"}}}', /currencies.USD.day has more than 2 decimals/],
    ['{"currencies": {"JPY": {"day": true}}}', /currencies.JPY.day must be an amount/],
    ['{"currencies": {"USD": {"day": "60000"}}}', /the day limit must not be above the month limit/],
    ['{"newAccounts": {"divisor": 0}}', /newAccounts.divisor must be a whole number from 1/],
    ['{"newAccounts": {"days": 1.5}}', /newAccounts.days must be a whole number/],
  ])('refuses %s with one line', (text, message) => {
    const file = fileWith(text);
    const refuse = () => loadConfig({ LIMITS_FILE: file });
    expect(refuse).toThrow(ConfigError);
    expect(refuse).toThrow(message);
    expect(refuse).toThrow(`LIMITS_FILE ${file}`);
    try {
      refuse();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('refuses a file it cannot read', () => {
    expect(() => loadConfig({ LIMITS_FILE: path.join(dir, 'missing.json') })).toThrow(
      /LIMITS_FILE .*missing.json cannot be read \(ENOENT\)/,
    );
  });
});
