// 50 requests at once at the edge of a limit never pass it together (DESIGN §17): stablecoin
// transfers through the group commit (the batch holds the senders' ledger accounts, checks the
// members in memory and writes their volume in its one statement) and card transfers (serialised
// on the sender's account row). The limits come from a LIMITS_FILE, which this also tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { registerUser, startTestServer, type TestServer } from '../helpers/test-server.js';
import { balances, send, setUp } from '../helpers/fiat.js';
import { agentTransfer, balanceOf, fund } from '../helpers/stablecoin.js';

const PARALLEL = 50;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-limits-'));
  const file = path.join(dir, 'limits.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ currencies: { USDC: { day: '10', month: 1000 }, USD: { day: '100.00' } }, newAccounts: { divisor: 1 } }),
  );
  server = await startTestServer({ LIMITS_FILE: file });
});
afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('at the edge of a limit', () => {
  it('the file’s limits apply, a new account’s not divided (divisor 1), the rest at the defaults', async () => {
    const user = await registerUser(server);
    const response = await server.request('GET', '/account/limits', { key: user.key });
    const line = (currency: string, window: string) =>
      response.body.limits.find((l: any) => l.currency === currency && l.window === window);
    expect(line('USDC', 'day')).toMatchObject({ limit: '10', remaining: '10' });
    expect(line('USDC', 'month')).toMatchObject({ limit: '1000' });
    expect(line('USD', 'day')).toMatchObject({ limit: '100.00' });
    expect(line('USD', 'month')).toMatchObject({ limit: '50000.00' });
    expect(line('EUR', 'day')).toMatchObject({ limit: '10000.00' });
  });

  it(`${PARALLEL} stablecoin transfers at once: exactly those that fit go, the others get 429 limit_exceeded`, async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await fund(server, sender, 100_000_000n);
    // 0.4 each: 25 of them fit in 10.
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () => agentTransfer(server, sender, { to: recipient.handle, amount: 0.4, currency: 'USDC' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 429 && r.body.code === 'limit_exceeded')).toHaveLength(PARALLEL - 25);
    expect((await balanceOf(server, sender)).USDC).toBe('90.000000');
  });

  it(`${PARALLEL} card transfers at once never pass the limit together`, async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await setUp(server, sender, '/agent/setup-link');
    // 5.00 and its fee 0.12: 19 fit in 100.00 (97.28), the 20th would not.
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () => send(server, sender, { recipientHandle: recipient.handle, amount: 5, currency: 'USD' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(19);
    expect(results.filter((r) => r.status === 429 && r.body.code === 'limit_exceeded')).toHaveLength(PARALLEL - 19);
    expect((await balances(server, recipient)).USD!.available).toBe('95.00');
  });
});
