// Registration spends one password hash's work on every answer that comes after the e-mail was
// looked up, so that its timing does not tell whether the e-mail has an account (DESIGN §9); and
// none at all on input it can refuse from the request alone, which it refuses before the lookup
// (DESIGN §15), alike for known and unknown e-mails.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '../helpers/test-database.js';
import { register } from '../../src/accounts/accounts-service.js';
import { createHdWalletProvider } from '../../src/adapters/wallet/hd-wallet-provider.js';
import { loadConfig } from '../../src/config.js';
import type { PasswordHasher } from '../../src/accounts/password-hasher.js';
import type { Database } from '../../src/db/database.js';

let database: Database;
const work: string[] = [];
const passwords: PasswordHasher = {
  async hash(password) {
    work.push('hash');
    return `plain$${password}`;
  },
  async verify(password, stored) {
    work.push('verify');
    return stored === `plain$${password}`;
  },
  async burn() {
    work.push('burn');
  },
};

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const deps = () => ({
  db: database.db,
  passwords,
  wallets: createHdWalletProvider(new Uint8Array(32).fill(7)),
  clock: { now: () => new Date() },
  config: loadConfig({ DATA_DIR: '/tmp/peerpay-unused' }),
});

it('spends one hash on a new account, a wrong password, and a refused sign-in for an unknown e-mail alike', async () => {
  const cases: [string, () => Promise<unknown>][] = [
    ['new account', () => register(deps(), { email: 'known@example.com', password: 'correct horse', name: 'Known' })],
    ['wrong password', () => register(deps(), { email: 'known@example.com', password: 'wrong password' })],
    ['unknown e-mail without a name', () => register(deps(), { email: 'nobody@example.com', password: 'any password' })],
  ];
  for (const [label, attempt] of cases) {
    work.length = 0;
    await attempt().catch(() => undefined);
    expect(work, label).toHaveLength(1);
  }
});

it('spends no hash on input refused from the request alone, whether or not the e-mail has an account', async () => {
  const cases: [string, () => Promise<unknown>][] = [
    ['unknown e-mail with an invalid name', () => register(deps(), { email: 'nobody@example.com', password: 'any password', name: ' ' })],
    ['known e-mail with an invalid name', () => register(deps(), { email: 'known@example.com', password: 'wrong password', name: ' ' })],
    [
      'unknown e-mail with an invalid phone',
      () => register(deps(), { email: 'nobody@example.com', password: 'any password', name: 'N', phone: 'call me' }),
    ],
    [
      'a name with a bidirectional override',
      () => register(deps(), { email: 'nobody@example.com', password: 'any password', name: 'N\u202e' }),
    ],
    ['a look-alike e-mail', () => register(deps(), { email: 'known\u200b@example.com', password: 'any password' })],
  ];
  for (const [label, attempt] of cases) {
    work.length = 0;
    await expect(attempt(), label).rejects.toMatchObject({ name: 'AppError' });
    expect(work, label).toEqual([]);
  }
});
