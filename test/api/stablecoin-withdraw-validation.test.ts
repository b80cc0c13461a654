// Every bad withdrawal request gets a 4xx problem document and changes nothing: no ledger movement,
// no withdrawal record, no outbox entry, no nonce used, nothing on chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress, zeroAddress } from 'viem';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { accountIdOf, balanceOf, fund } from '../helpers/stablecoin.js';
import { upsertWithdrawalAddress } from '../../src/stablecoin/withdrawal-address-repository.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { freshAddress, fundHotWallet, onChainBalance, settleWithdrawals, withdraw, withdrawalSnapshot } from '../helpers/withdrawals.js';

let server: TestServer;
let user: TestUser;
let other: TestUser;
const good = freshAddress();

beforeAll(async () => {
  server = await startTestServer();
  await fundHotWallet(server, 100_000_000n);
  user = await registerUser(server);
  other = await registerUser(server);
  await fund(server, user, 10_000_000n);
});
afterAll(async () => {
  await server?.close();
});

/** An EIP-55 address with the case of one checksummed letter flipped: a typo the checksum catches. */
function badChecksum(address: string): string {
  const checksummed = getAddress(address);
  const at = [...checksummed].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c));
  const c = checksummed[at]!;
  return checksummed.slice(0, at) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + checksummed.slice(at + 1);
}

async function expectRefusedWithNoChange(
  body: unknown,
  status: number,
  code: string,
  options: { key?: string; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const before = await withdrawalSnapshot(server);
  const hotBefore = await onChainBalance(server, server.deps.wallets.hotWallet.address);
  const response = await server.request('POST', '/stablecoin/withdraw', {
    key: options.key ?? user.key,
    ...(options.rawBody !== undefined
      ? { rawBody: options.rawBody, headers: { 'content-type': 'application/json', ...options.headers } }
      : { body, headers: options.headers }),
  });
  const problem = expectProblem(response, status, code);
  expect(await withdrawalSnapshot(server)).toBe(before);
  expect(await onChainBalance(server, server.deps.wallets.hotWallet.address)).toBe(hotBefore);
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  return problem;
}

describe('bad addresses', () => {
  const cases: [string, () => string][] = [
    ['too short', () => '0x1234'],
    ['too long', () => good + '00'],
    ['40 hex digits without 0x', () => good.slice(2)],
    ['not hex', () => '0x' + 'g'.repeat(40)],
    ['a wrong EIP-55 checksum', () => badChecksum(good)],
    ['the zero address', () => zeroAddress],
    ["peerpay's hot wallet", () => server.deps.wallets.hotWallet.address],
    ['a token contract', () => server.deps.chain.tokens.USDC],
    ['a peerpay deposit address (another user’s)', () => other.depositAddress],
    ['the caller’s own deposit address, in lower case', () => user.depositAddress.toLowerCase()],
  ];
  for (const [name, address] of cases) {
    it(`${name} → 400 invalid_address`, async () => {
      await expectRefusedWithNoChange({ amount: 5, currency: 'USDC', address: address() }, 400, 'invalid_address');
    });
  }

  it('a peerpay address is refused as a saved default, and one saved before that rule is refused when used', async () => {
    const someone = await registerUser(server);
    await fund(server, someone, 5_000_000n);
    expectProblem(
      await server.request('PUT', '/stablecoin/withdrawal-address', { key: someone.key, body: { address: other.depositAddress } }),
      400,
      'invalid_address',
    );
    // Saved under the old rule, straight into the table.
    const accountId = await accountIdOf(server, someone);
    await upsertWithdrawalAddress(server.deps.db, { accountId, address: getAddress(other.depositAddress), at: new Date() });
    await expectRefusedWithNoChange({ amount: 1, currency: 'USDC' }, 400, 'invalid_address', { key: someone.key });
  });
});

describe('bad amounts and currencies', () => {
  const cases: [string, unknown, number, string][] = [
    ['more than 6 decimals', { amount: 1.0000001, currency: 'USDC', address: good }, 400, 'invalid_amount'],
    ['zero', { amount: 0, currency: 'USDC', address: good }, 400, 'invalid_amount'],
    ['negative', { amount: -5, currency: 'USDC', address: good }, 400, 'invalid_amount'],
    ['over the per-operation maximum', { amount: 1_000_001, currency: 'USDC', address: good }, 400, 'amount_too_large'],
    ['an unknown currency', { amount: 5, currency: 'BTC', address: good }, 400, 'unsupported_currency'],
    ['a fiat currency', { amount: 5, currency: 'USD', address: good }, 400, 'unsupported_currency'],
    ['a string amount', { amount: '5', currency: 'USDC', address: good }, 400, 'invalid_request'],
    ['an unknown field', { amount: 5, currency: 'USDC', address: good, chain: 'MATIC' }, 400, 'invalid_request'],
    ['no amount', { currency: 'USDC', address: good }, 400, 'invalid_request'],
    ['no currency', { amount: 5, address: good }, 400, 'invalid_request'],
    ['an address that is not a string', { amount: 5, currency: 'USDC', address: 42 }, 400, 'invalid_request'],
    ['more than the balance', { amount: 10.000001, currency: 'USDC', address: good }, 400, 'insufficient_balance'],
    ['a token never held', { amount: 1, currency: 'EURC', address: good }, 400, 'insufficient_balance'],
  ];
  for (const [name, body, status, code] of cases) {
    it(`${name} → ${status} ${code}`, async () => {
      await expectRefusedWithNoChange(body, status, code);
    });
  }

  it('malformed JSON → 400 malformed_json; no key → 401', async () => {
    await expectRefusedWithNoChange(undefined, 400, 'malformed_json', { rawBody: '{"amount": 5,' });
    const before = await withdrawalSnapshot(server);
    expectProblem(
      await server.request('POST', '/stablecoin/withdraw', { body: { amount: 5, currency: 'USDC', address: good } }),
      401,
      'unauthorized',
    );
    expect(await withdrawalSnapshot(server)).toBe(before);
  });

  it('a refusal keeps no Idempotency-Key: the corrected request with the same key goes through', async () => {
    const headers = { 'idempotency-key': 'fix-then-retry' };
    await expectRefusedWithNoChange({ amount: 5, currency: 'USDC', address: badChecksum(good) }, 400, 'invalid_address', { headers });
    const response = await withdraw(server, user, { amount: 5, currency: 'USDC', address: good }, headers);
    expect(response.status).toBe(200);
    await settleWithdrawals(server);
    expect(await onChainBalance(server, good)).toBe(4_925_500n);
    expect(await balanceOf(server, user)).toEqual({ USDC: '5.000000', EURC: '0.000000' });
  });
});

describe('the smallest amounts', () => {
  it('a withdrawal is at least 1.00 (DESIGN §15): less is amount_too_small naming 1 and changes nothing; 1.00 pays 0.0149 and sends 0.9851', async () => {
    const to = freshAddress();
    for (const amount of [0.000001, 0.000034, 0.999999]) {
      const problem = await expectRefusedWithNoChange({ amount, currency: 'USDC', address: to }, 400, 'amount_too_small');
      expect(problem.minimum).toBe('1');
    }
    const smallest = await withdraw(server, user, { amount: 1, currency: 'USDC', address: to });
    expect(smallest.body).toMatchObject({ gross: 1, fee: 0.0149, net: 0.9851 });
    await settleWithdrawals(server);
    expect(await onChainBalance(server, to)).toBe(985_100n);
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});
