// Invalid input to POST /transfers, of every kind, gets a 4xx problem document and changes
// nothing: no transfer, no processor charge, no ledger movement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { balances, moneySnapshot, send, setUp } from '../helpers/fiat.js';

let server: TestServer;
let sender: TestUser;
let recipient: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  sender = await registerUser(server);
  recipient = await registerUser(server);
  // With a working card and bank debit, only the input can be at fault.
  await setUp(server, sender, '/agent/setup-link');
  await setUp(server, sender, '/agent/bank-debit-link');
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

const valid = () => ({ recipientHandle: recipient.handle, amount: 10, currency: 'USD' });

describe('POST /transfers refuses bad input and changes nothing', () => {
  const cases: [string, () => Record<string, unknown>, number, string][] = [
    ['amount as a string', () => ({ ...valid(), amount: '10' }), 400, 'invalid_request'],
    ['amount as a boolean', () => ({ ...valid(), amount: true }), 400, 'invalid_request'],
    ['amount null', () => ({ ...valid(), amount: null }), 400, 'invalid_request'],
    ['a negative amount', () => ({ ...valid(), amount: -5 }), 400, 'invalid_amount'],
    ['a zero amount', () => ({ ...valid(), amount: 0 }), 400, 'invalid_amount'],
    ['10.001 USD (three decimals)', () => ({ ...valid(), amount: 10.001 }), 400, 'invalid_amount'],
    ['0.1 + 0.2 as a float', () => ({ ...valid(), amount: 0.1 + 0.2 }), 400, 'invalid_amount'],
    ['1.5 JPY (decimals in yen)', () => ({ ...valid(), amount: 1.5, currency: 'JPY' }), 400, 'invalid_amount'],
    ['1e-7 USD', () => ({ ...valid(), amount: 1e-7 }), 400, 'invalid_amount'],
    ['an amount over the maximum', () => ({ ...valid(), amount: 1_000_000.01 }), 400, 'amount_too_large'],
    ['a huge amount', () => ({ ...valid(), amount: 1e300 }), 400, 'amount_too_large'],
    ['an unknown currency', () => ({ ...valid(), currency: 'XYZ' }), 400, 'unsupported_currency'],
    ['a stablecoin as currency', () => ({ ...valid(), currency: 'USDC' }), 400, 'unsupported_currency'],
    ['an empty currency', () => ({ ...valid(), currency: '' }), 400, 'invalid_request'],
    ['currency as a number', () => ({ ...valid(), currency: 840 }), 400, 'invalid_request'],
    ['an unknown payment method', () => ({ ...valid(), paymentMethod: 'wire' }), 400, 'invalid_request'],
    ['an unknown field', () => ({ ...valid(), fee: 0 }), 400, 'invalid_request'],
    ['a missing recipient', () => ({ amount: 10, currency: 'USD' }), 400, 'invalid_request'],
    ['a missing amount', () => ({ recipientHandle: recipient.handle, currency: 'USD' }), 400, 'invalid_request'],
    ['a missing currency', () => ({ recipientHandle: recipient.handle, amount: 10 }), 400, 'invalid_request'],
    ['recipient as a number', () => ({ ...valid(), recipientHandle: 12345678 }), 400, 'invalid_request'],
    ['a note over 500 characters', () => ({ ...valid(), note: 'x'.repeat(501) }), 400, 'invalid_request'],
    ['an unknown recipient', () => ({ ...valid(), recipientHandle: 'PA-00000000' }), 404, 'recipient_not_found'],
    ['the sender as recipient', () => ({ ...valid(), recipientHandle: sender.handle }), 400, 'self_transfer'],
  ];

  it.each(cases)('%s', async (_name, body, status, code) => {
    const before = await moneySnapshot(server);
    expectProblem(await send(server, sender, body()), status, code);
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('bodies that are not a JSON object', async () => {
    const before = await moneySnapshot(server);
    const raw = (rawBody: string, contentType = 'application/json') =>
      server.request('POST', '/transfers', { key: sender.key, rawBody, headers: { 'content-type': contentType } });
    expectProblem(await raw('{"recipientHandle": "PA-', 'application/json'), 400, 'malformed_json');
    expectProblem(await raw('[1, 2]'), 400, 'invalid_request');
    // JSON numbers JavaScript cannot hold as such: 1e400 parses to Infinity, -0 is not positive.
    const handle = JSON.stringify(recipient.handle);
    const withAmount = (amount: string) => `{"recipientHandle": ${handle}, "amount": ${amount}, "currency": "USD"}`;
    expectProblem(await raw(withAmount('1e400')), 400, 'invalid_request');
    expectProblem(await raw(withAmount('-0')), 400, 'invalid_amount');
    expectProblem(await raw('null'), 400);
    expectProblem(await raw('"10 USD"'), 400, 'invalid_request');
    expectProblem(await raw(''), 400, 'invalid_request');
    expectProblem(await raw('amount=10', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type');
    expectProblem(await raw(JSON.stringify({ ...valid(), note: 'x'.repeat(70_000) })), 413, 'body_too_large');
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('without a key, or with a bad or revoked key: 401', async () => {
    const before = await moneySnapshot(server);
    expectProblem(await server.request('POST', '/transfers', { body: valid() }), 401, 'unauthorized');
    expectProblem(await server.request('POST', '/transfers', { key: 'pa_live_wrong', body: valid() }), 401, 'unauthorized');
    const revoked = await registerUser(server);
    await setUp(server, revoked, '/agent/setup-link');
    const afterSetup = await moneySnapshot(server);
    expect((await server.request('POST', '/account/revoke-key', { key: revoked.key })).status).toBe(200);
    expectProblem(await send(server, revoked, valid()), 401, 'unauthorized');
    expect(await moneySnapshot(server)).toBe(afterSetup);
    expect(afterSetup).toBe(before);
  });

  it('an Idempotency-Key longer than 255 characters is refused', async () => {
    const before = await moneySnapshot(server);
    expectProblem(await send(server, sender, valid(), { 'idempotency-key': 'k'.repeat(256) }), 400, 'invalid_request');
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('refuses a total below the minimum charge with amount_too_small naming the smallest amount, and moves nothing', async () => {
    const before = await moneySnapshot(server);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 0.48 }, '0.49'],
      [{ amount: 0.01 }, '0.49'],
      [{ amount: 0.48, paymentMethod: 'ach' }, '0.49'],
      [{ amount: 0.28, currency: 'GBP' }, '0.29'],
      [{ amount: 48, currency: 'JPY' }, '49'],
      [{ amount: 48, currency: 'JPY', paymentMethod: 'ach' }, '49'],
    ];
    for (const [change, minimum] of cases) {
      const problem = expectProblem(await send(server, sender, { ...valid(), ...change }), 400, 'amount_too_small');
      expect(problem.minimum).toBe(minimum);
    }
    expect(await moneySnapshot(server)).toBe(before);
  });

  it('the largest amount allowed and the smallest amounts do go through', async () => {
    const largest = await send(server, sender, { ...valid(), amount: 1_000_000 });
    expect(largest.status).toBe(200);
    expect(largest.body.transfer).toMatchObject({ amount: '1000000.00', fee: '24900.00', totalDeducted: '1024900.00' });
    // The smallest transfers are those whose total reaches the minimum charge (0.50 USD, 50 JPY).
    const smallest = await send(server, sender, { ...valid(), amount: 0.49 });
    expect(smallest.body.transfer).toMatchObject({ amount: '0.49', fee: '0.01', totalDeducted: '0.50', status: 'completed' });
    // 0.8% of 49 yen rounds to 0; every fee is at least one minor unit, so 49 + 1 reaches 50.
    const yen = await send(server, sender, { ...valid(), amount: 49, currency: 'JPY', paymentMethod: 'ach' });
    expect(yen.body.transfer).toMatchObject({ amount: '49', fee: '1', totalDeducted: '50', status: 'pending' });
    // Half-up: 0.8% of 0.63 is 0.00504 → 0.01; 2.49% of 0.60 is 0.01494 → 0.01, of 0.62 is 0.015438 → 0.02.
    expect((await send(server, sender, { ...valid(), amount: 0.63, paymentMethod: 'ach' })).body.transfer.fee).toBe('0.01');
    expect((await send(server, sender, { ...valid(), amount: 0.6 })).body.transfer.fee).toBe('0.01');
    expect((await send(server, sender, { ...valid(), amount: 0.62 })).body.transfer.fee).toBe('0.02');
    expect((await balances(server, recipient)).USD).toEqual({ available: '1000001.71', pending: '0.63' });
    expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  });
});
