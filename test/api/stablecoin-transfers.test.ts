// Internal stablecoin transfers through the HTTP API of a running server (issue 3, item 4): by
// handle, e-mail and phone on POST /agent/transfer, by recipientEmail on POST /stablecoin/transfer,
// in USDC and EURC; the fee deducted and rounded half-up; balances as exact decimal strings; and
// quotes that equal the transfers they describe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { feesOf } from '../helpers/ledger.js';
import { expectProblem, registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';
import { agentTransfer, balanceOf, emailTransfer, fund, minorOf, setPhone, stablecoinSnapshot } from '../helpers/stablecoin.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  expect(await checkLedgerInvariants(server.deps.db)).toEqual([]);
  await server.close();
});

async function platformFees(token: 'USDC' | 'EURC'): Promise<bigint> {
  // Fees are kept in shards (ledger-accounts.ts): their sum is the platform's fees.
  return feesOf(server.deps.db, token);
}

async function quote(user: TestUser, query: Record<string, string>) {
  return server.request('GET', `/agent/transfer/quote?${new URLSearchParams(query).toString()}`, { key: user.key });
}

describe('GET /stablecoin/balance', () => {
  it('answers both tokens as exact decimal strings with 6 decimals, zero included', async () => {
    const user = await registerUser(server);
    expect(await balanceOf(server, user)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    await fund(server, user, 100_000_000n);
    await fund(server, user, 1n, 'EURC');
    const response = await server.request('GET', '/stablecoin/balance', { key: user.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ USDC: '100.000000', EURC: '0.000001' });
  });

  it('needs a key', async () => {
    expectProblem(await server.request('GET', '/stablecoin/balance'), 401, 'unauthorized');
  });
});

describe('POST /agent/transfer', () => {
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    alice = await registerUser(server);
    bob = await registerUser(server);
    await fund(server, alice, 100_000_000n);
  });

  it('sends 10 USDC by handle: fee 0.149, bob receives 9.851, balances exact', async () => {
    const feesBefore = await platformFees('USDC');
    const response = await agentTransfer(server, alice, { to: bob.handle, amount: 10, currency: 'USDC' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      transferId: expect.stringMatching(/^sct_/),
      status: 'complete',
      amount: 10,
      fee: 0.149,
      recipientAmount: 9.851,
      currency: 'USDC',
      recipientHandle: bob.handle,
      createdAt: expect.any(String),
    });
    expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
    expect(await balanceOf(server, alice)).toEqual({ USDC: '90.000000', EURC: '0.000000' });
    expect(await balanceOf(server, bob)).toEqual({ USDC: '9.851000', EURC: '0.000000' });
    expect((await platformFees('USDC')) - feesBefore).toBe(149_000n);
  });

  it('the transfer is one ledger operation: net to the recipient and the fee to the platform', async () => {
    const response = await agentTransfer(server, alice, { to: bob.handle, amount: 2, currency: 'USDC' });
    const rows = await server.deps.db
      .selectFrom('ledger_transfers')
      .select(['code', 'amount', 'kind'])
      .where('operation_id', '=', `stablecoin:${response.body.transferId}`)
      .orderBy('code')
      .execute();
    expect(rows).toEqual([
      { code: 'stablecoin_fee', amount: 29_800n, kind: 'posted' },
      { code: 'stablecoin_transfer', amount: 1_970_200n, kind: 'posted' },
    ]);
  });

  it('sends by e-mail, in any letter case', async () => {
    const before = minorOf((await balanceOf(server, bob)).USDC);
    const response = await agentTransfer(server, alice, { to: `  ${bob.email.toUpperCase()} `, amount: 1, currency: 'USDC' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ amount: 1, fee: 0.0149, recipientAmount: 0.9851, recipientHandle: bob.handle });
    expect(minorOf((await balanceOf(server, bob)).USDC) - before).toBe(985_100n);
  });

  it('sends by E.164 phone number, also written with spaces and dashes', async () => {
    const carol = await registerUser(server);
    await setPhone(server, carol, '+14155550123');
    const first = await agentTransfer(server, alice, { to: '+14155550123', amount: 3, currency: 'USDC' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ recipientHandle: carol.handle, recipientAmount: 2.9553 });
    const second = await agentTransfer(server, alice, { to: '+1 415-555-0123', amount: 1, currency: 'USDC' });
    expect(second.body.recipientHandle).toBe(carol.handle);
    expect(await balanceOf(server, carol)).toEqual({ USDC: '3.940400', EURC: '0.000000' });
  });

  it('reads a handle in any letter case', async () => {
    const response = await agentTransfer(server, alice, { to: bob.handle.toLowerCase(), amount: 0.5, currency: 'usdc' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ recipientHandle: bob.handle, currency: 'USDC', fee: 0.00745, recipientAmount: 0.49255 });
  });

  it('sends EURC in euros: 25.5 EURC costs 0.37995', async () => {
    const dave = await registerUser(server);
    await fund(server, alice, 50_000_000n, 'EURC');
    const feesBefore = await platformFees('EURC');
    const response = await agentTransfer(server, alice, { to: dave.handle, amount: 25.5, currency: 'EURC' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ amount: 25.5, fee: 0.37995, recipientAmount: 25.12005, currency: 'EURC' });
    expect(await balanceOf(server, dave)).toEqual({ USDC: '0.000000', EURC: '25.120050' });
    expect((await balanceOf(server, alice)).EURC).toBe('24.500000');
    expect((await platformFees('EURC')) - feesBefore).toBe(379_950n);
  });

  it('can spend the whole balance, to the last unit', async () => {
    const erin = await registerUser(server);
    await fund(server, erin, 12_345_678n);
    const response = await agentTransfer(server, erin, { to: bob.handle, amount: 12.345678, currency: 'USDC' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ amount: 12.345678, fee: 0.183951, recipientAmount: 12.161727 });
    expect((await balanceOf(server, erin)).USDC).toBe('0.000000');
    expectProblem(await agentTransfer(server, erin, { to: bob.handle, amount: 0.01, currency: 'USDC' }), 400, 'insufficient_balance');
  });
});

describe('fee rounding: 1.49% rounded half-up to 6 decimals', () => {
  let payer: TestUser;
  let payee: TestUser;

  beforeAll(async () => {
    payer = await registerUser(server);
    payee = await registerUser(server);
    await fund(server, payer, 2_000_000_000_000n);
  });

  it.each([
    [0.015, 0.000224, 0.014776], // 223.5 micro-units: the half rounds up
    [0.012651, 0.000188, 0.012463], // 188.4999 rounds down
    [0.017349, 0.000259, 0.01709], // 258.5001 rounds up
    [0.01, 0.000149, 0.009851], // the smallest transfer (DESIGN §15)
    [5, 0.0745, 4.9255],
    [1_000_000, 14_900, 985_100], // the largest amount allowed
  ])('%s USDC: fee %s, recipient receives %s; the quote says the same', async (amount, fee, net) => {
    const q = await quote(payer, { to: payee.handle, amount: String(amount), currency: 'USDC' });
    expect(q.status).toBe(200);
    expect(q.body).toEqual({ amount, fee, feeRate: '1.49%', recipientReceives: net, currency: 'USDC', recipientHandle: payee.handle });
    const t = await agentTransfer(server, payer, { to: payee.handle, amount, currency: 'USDC' });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ amount, fee, recipientAmount: net });
  });

  it('dust whose fee would round to zero is refused (DESIGN §15): under 0.01 is amount_too_small, for the quote and the transfer alike', async () => {
    const before = await balanceOf(server, payee);
    for (const amount of [0.000001, 0.000033]) {
      const q = expectProblem(await quote(payer, { to: payee.handle, amount: String(amount), currency: 'USDC' }), 400, 'amount_too_small');
      const t = expectProblem(await agentTransfer(server, payer, { to: payee.handle, amount, currency: 'USDC' }), 400, 'amount_too_small');
      expect(q.minimum).toBe('0.01');
      expect(t.minimum).toBe('0.01');
    }
    expect(await balanceOf(server, payee)).toEqual(before);
  });
});

describe('POST /stablecoin/transfer (by recipientEmail)', () => {
  it('sends 10 USDC: fee 0.149, recipient 9.851, the same transfer object', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await fund(server, sender, 10_000_000n);
    const response = await emailTransfer(server, sender, { recipientEmail: recipient.email, amount: 10, currency: 'USDC' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'complete',
      amount: 10,
      fee: 0.149,
      recipientAmount: 9.851,
      currency: 'USDC',
      recipientHandle: recipient.handle,
    });
    expect(await balanceOf(server, sender)).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    expect(await balanceOf(server, recipient)).toEqual({ USDC: '9.851000', EURC: '0.000000' });
  });

  it('sends EURC', async () => {
    const sender = await registerUser(server);
    const recipient = await registerUser(server);
    await fund(server, sender, 1_000_000n, 'EURC');
    const response = await emailTransfer(server, sender, { recipientEmail: recipient.email, amount: 1, currency: 'EURC' });
    expect(response.body).toMatchObject({ amount: 1, fee: 0.0149, recipientAmount: 0.9851, currency: 'EURC' });
    expect((await balanceOf(server, recipient)).EURC).toBe('0.985100');
  });
});

describe('GET /agent/transfer/quote', () => {
  let payer: TestUser;
  let payee: TestUser;

  beforeAll(async () => {
    payer = await registerUser(server);
    payee = await registerUser(server);
    await setPhone(server, payee, '+447700900123');
  });

  it('defaults currency to USDC and needs no balance', async () => {
    const response = await quote(payer, { to: payee.handle, amount: '10' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      amount: 10,
      fee: 0.149,
      feeRate: '1.49%',
      recipientReceives: 9.851,
      currency: 'USDC',
      recipientHandle: payee.handle,
    });
  });

  it('quotes EURC, and finds the recipient by e-mail or phone', async () => {
    expect((await quote(payer, { to: payee.email, amount: '25.5', currency: 'EURC' })).body).toMatchObject({
      fee: 0.37995,
      recipientReceives: 25.12005,
      currency: 'EURC',
    });
    // Found by phone, and not named: the payee is not in the public directory (decision 0027).
    const byPhone = await quote(payer, { to: '+447700900123', amount: '1' });
    expect(byPhone.status).toBe(200);
    expect(byPhone.body).toMatchObject({ recipientReceives: 0.9851 });
    expect(byPhone.body).not.toHaveProperty('recipientHandle');
  });

  it('moves nothing', async () => {
    await fund(server, payer, 10_000_000n);
    const before = await stablecoinSnapshot(server);
    expect((await quote(payer, { to: payee.handle, amount: '10' })).status).toBe(200);
    expect(await stablecoinSnapshot(server)).toBe(before);
  });

  it('equals the transfer it describes, for amounts of every size', async () => {
    await fund(server, payer, 3_000_000_000n);
    for (const amount of ['0.000001', '0.01', '0.33', '1.234567', '99.999999', '1000']) {
      const q = (await quote(payer, { to: payee.handle, amount })).body;
      const t = (await agentTransfer(server, payer, { to: payee.handle, amount: Number(amount), currency: 'USDC' })).body;
      expect({ amount: t.amount, fee: t.fee, net: t.recipientAmount }).toEqual({ amount: q.amount, fee: q.fee, net: q.recipientReceives });
    }
  });
});
