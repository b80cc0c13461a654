// PAY_TO: x402 payments go to a configured address instead of the hot wallet; the status document,
// the 402 answers and verification all follow it. Bad values refuse to start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { decodeBase64Json, fundedPayer, handMadeV1Header, LOOKUP_PRICE, usdcOf, v2Fetch, x402Books } from '../helpers/nano.js';
import { custodyOf } from '../helpers/stablecoin-chain.js';
import { recordChainRevenue } from '../../src/nano/x402-ledger.js';

const payTo = privateKeyToAccount(generatePrivateKey()).address;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ PAY_TO: payTo });
});
afterAll(async () => {
  await server?.close();
});

describe('PAY_TO', () => {
  it('is named by the status document and the 402 answers', async () => {
    expect((await server.request('GET', '/.well-known/x402')).body.payTo).toBe(payTo);
    const unpaid = await server.request('GET', '/nano/lookup?handle=PA-AAAAAAAA');
    expect(unpaid.body.accepts[0].payTo).toBe(payTo);
    expect(decodeBase64Json(unpaid.headers.get('payment-required')).accepts[0].payTo).toBe(payTo);
  });

  it('receives the payments; the hot wallet relays them and receives nothing', async () => {
    const payer = await fundedPayer(server);
    const hot = server.deps.wallets.hotWallet.address;
    const hotBefore = await usdcOf(server, hot);
    const response = await v2Fetch(server, payer)(`${server.url}/nano/lookup?handle=PA-AAAAAAAA`);
    expect(response.status).toBe(200);
    expect(await usdcOf(server, payTo)).toBe(LOOKUP_PRICE);
    expect(await usdcOf(server, hot)).toBe(hotBefore);
  });

  it('books nothing into custody: peerpay only relayed, and the books still equal what the hot wallet and deposit addresses hold', async () => {
    const payer = await fundedPayer(server);
    const hot = server.deps.wallets.hotWallet.address;
    const hotBefore = await usdcOf(server, hot);
    const before = await x402Books(server);
    const response = await v2Fetch(server, payer)(`${server.url}/nano/lookup?handle=PA-AAAAAAAA`);
    expect(response.status).toBe(200);
    const after = await x402Books(server);
    expect(after.settled).toBe(before.settled + 1);
    // The payment is recorded (x402_payments, settled, with its pay_to), but no custody moved and
    // no revenue is booked that peerpay does not hold.
    expect(after.custody).toBe(before.custody);
    expect(after.revenue).toBe(before.revenue);
    const custody = await custodyOf(server, 'USDC', hotBefore);
    expect(custody.booked).toBe(custody.onChain);
  });

  it('a payment finished later (reconciliation) to an external PAY_TO is not booked as custody either', async () => {
    const before = await x402Books(server);
    await server.deps.db.transaction().execute((trx) =>
      recordChainRevenue(trx, {
        id: 'x402_reconciled_external',
        amountMinor: LOOKUP_PRICE,
        payTo,
        hotWallet: server.deps.wallets.hotWallet.address,
      }),
    );
    const after = await x402Books(server);
    expect(after.custody).toBe(before.custody);
    expect(after.revenue).toBe(before.revenue);
  });

  it('refuses a payment to the hot wallet when PAY_TO names another address', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, LOOKUP_PRICE, { to: server.deps.wallets.hotWallet.address });
    const response = await server.request('GET', '/nano/lookup?handle=PA-AAAAAAAA', { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(402);
    expect(response.body.error).toBe('invalid_exact_evm_payload_recipient_mismatch');
  });
});

describe('configuration', () => {
  it.each([
    [{ PAY_TO: 'not-an-address' }, /PAY_TO/],
    [{ PAY_TO: '0x1234' }, /PAY_TO/],
    [{ X402_FACILITATOR_URL: 'ftp://facilitator.example' }, /X402_FACILITATOR_URL/],
    [{ X402_FACILITATOR_URL: 'not a url' }, /X402_FACILITATOR_URL/],
  ])('%o refuses to start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('defaults to the hot wallet and the built-in facilitator', () => {
    const config = loadConfig({});
    expect(config.x402PayTo).toBeUndefined();
    expect(config.x402FacilitatorUrl).toBeUndefined();
  });
});
