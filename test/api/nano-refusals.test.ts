// Payments that must be refused: each answers 402 with a reason string of the x402 specification,
// serves nothing, and settles nothing (no token moves, no revenue is recorded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { registerUser, startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import {
  decodeBase64Json,
  encodeBase64Json,
  fundedPayer,
  handMadeV1Header,
  payToOf,
  QUOTE_PRICE,
  recordingFetch,
  SEARCH_PRICE,
  signAuthorization,
  usdcOf,
  x402Books,
} from '../helpers/nano.js';
import { wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const QUOTE = '/nano/quote?amount=10';

function expectRefused(response: TestResponse, reason: string): void {
  if (response.status !== 402) throw new Error(`expected 402 ${reason}, got ${response.status} ${response.text}`);
  expect(response.body.code).toBe('payment_required');
  expect(response.body.error).toBe(reason);
  expect(response.body.x402Version).toBe(1);
  // Nothing served: the body is the problem document with the requirements, never the answer.
  expect(response.body.fee).toBeUndefined();
  expect(response.body.results).toBeUndefined();
  expect(response.headers.get('x-payment-response')).toBeNull();
  expect(response.headers.get('payment-response')).toBeNull();
  expect(decodeBase64Json(response.headers.get('payment-required')).error).toBe(reason);
}

async function payWith(header: string, path = QUOTE, name = 'X-PAYMENT'): Promise<TestResponse> {
  return server.request('GET', path, { headers: { [name]: header } });
}

/** Runs `act` and checks that no token moved for `payer` and that peerpay recorded no revenue. */
async function expectNothingSettled(payer: `0x${string}`, act: () => Promise<void>): Promise<void> {
  const [balance, payTo, books] = [await usdcOf(server, payer), await usdcOf(server, payToOf(server)), await x402Books(server)];
  await act();
  expect(await usdcOf(server, payer)).toBe(balance);
  expect(await usdcOf(server, payToOf(server))).toBe(payTo);
  const after = await x402Books(server);
  expect(after.settled).toBe(books.settled);
  expect(after.revenue).toBe(books.revenue);
}

describe('replaying a used payment header', () => {
  it('v1: the same X-PAYMENT again is refused (duplicate_settlement) and settles nothing more', async () => {
    const payer = await fundedPayer(server);
    const sent: Headers[] = [];
    const first = await wrapFetchV1(recordingFetch(sent), payer, 10_000n)(`${server.url}${QUOTE}`);
    expect(first.status).toBe(200);
    const header = sent.find((h) => h.has('x-payment'))!.get('x-payment')!;
    await expectNothingSettled(payer.address, async () => {
      expectRefused(await payWith(header), 'duplicate_settlement');
      expectRefused(await payWith(header, '/nano/search?q=someone'), 'duplicate_settlement');
    });
  });

  it('v2: the same PAYMENT-SIGNATURE again is refused', async () => {
    const payer = await fundedPayer(server);
    const sent: Headers[] = [];
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: payer });
    const first = await wrapFetchV2(recordingFetch(sent), client)(`${server.url}${QUOTE}`);
    expect(first.status).toBe(200);
    const header = sent.find((h) => h.has('payment-signature'))!.get('payment-signature')!;
    await expectNothingSettled(payer.address, async () => {
      expectRefused(await payWith(header, QUOTE, 'PAYMENT-SIGNATURE'), 'duplicate_settlement');
    });
  });

  it('an authorization already used on chain (relayed by someone else) is refused', async () => {
    const payer = await fundedPayer(server);
    const { authorization, signature } = await signAuthorization(server, payer, QUOTE_PRICE);
    // The payee itself relays it first, straight to the token: the nonce is spent on chain.
    const hash = await server.deps.chain.chain.relayTransferWithAuthorization({
      token: server.deps.chain.tokens.USDC,
      relayer: server.deps.wallets.sandboxTokenOwner,
      authorization: {
        ...authorization,
        from: payer.address,
        to: authorization.to,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
        nonce: authorization.nonce,
        signature,
      },
      nonce: await server.deps.chain.chain.getNonce({ address: server.deps.wallets.sandboxTokenOwner.address, blockTag: 'pending' }),
    });
    for (let i = 0; i < 100 && !(await server.deps.chain.chain.getTransactionOutcome(hash)); i++)
      await new Promise((r) => setTimeout(r, 20));
    const header = encodeBase64Json({ x402Version: 1, scheme: 'exact', network: 'polygon', payload: { signature, authorization } });
    await expectNothingSettled(payer.address, async () => expectRefused(await payWith(header), 'duplicate_settlement'));
  });
});

describe('authorizations that do not pay what is asked', () => {
  it.each([
    ['too little', { value: QUOTE_PRICE - 1n }, 'invalid_exact_evm_payload_authorization_value'],
    ['too much (the price is exact)', { value: QUOTE_PRICE + 1n }, 'invalid_exact_evm_payload_authorization_value'],
    ['the wrong payTo', { to: privateKeyToAccount(generatePrivateKey()).address }, 'invalid_exact_evm_payload_recipient_mismatch'],
    ['a signature for another chain id', { chainId: 1 }, 'invalid_exact_evm_payload_signature'],
    [
      'a signature for another token',
      { verifyingContract: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D' as const },
      'invalid_exact_evm_payload_signature',
    ],
    [
      'an expired authorization',
      { validAfter: 0n, validBefore: BigInt(Math.floor(Date.now() / 1000) - 10) },
      'invalid_exact_evm_payload_authorization_valid_before',
    ],
    [
      'one about to expire',
      { validBefore: BigInt(Math.floor(Date.now() / 1000) + 2) },
      'invalid_exact_evm_payload_authorization_valid_before',
    ],
    [
      'one not yet valid',
      { validAfter: BigInt(Math.floor(Date.now() / 1000) + 3600), validBefore: BigInt(Math.floor(Date.now() / 1000) + 7200) },
      'invalid_exact_evm_payload_authorization_valid_after',
    ],
  ])('%s is refused', async (_name, overrides, reason) => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE, overrides);
    await expectNothingSettled(payer.address, async () => expectRefused(await payWith(header), reason));
  });

  it('a payment of the cheaper endpoint’s price is refused on the dearer one', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    await expectNothingSettled(payer.address, async () =>
      expectRefused(await payWith(header, '/nano/search?q=x'), 'invalid_exact_evm_payload_authorization_value'),
    );
    expect(SEARCH_PRICE).toBeGreaterThan(QUOTE_PRICE);
  });

  it('a signature by someone other than `from` is refused', async () => {
    const payer = await fundedPayer(server);
    const impostor = privateKeyToAccount(generatePrivateKey());
    const { authorization } = await signAuthorization(server, payer, QUOTE_PRICE);
    const { signature } = await signAuthorization(server, impostor, QUOTE_PRICE, { nonce: authorization.nonce });
    const header = encodeBase64Json({ x402Version: 1, scheme: 'exact', network: 'polygon', payload: { signature, authorization } });
    await expectNothingSettled(payer.address, async () => expectRefused(await payWith(header), 'invalid_exact_evm_payload_signature'));
  });

  it('a payer without the USDC is refused with insufficient_funds', async () => {
    const poor = privateKeyToAccount(generatePrivateKey());
    const header = await handMadeV1Header(server, poor, QUOTE_PRICE);
    await expectNothingSettled(poor.address, async () => expectRefused(await payWith(header), 'insufficient_funds'));
  });
});

describe('payments that are not on peerpay’s terms', () => {
  it.each([
    ['another network (v1)', { x402Version: 1, scheme: 'exact', network: 'base' }, 'X-PAYMENT', 'invalid_network'],
    ['another scheme (v1)', { x402Version: 1, scheme: 'upto', network: 'polygon' }, 'X-PAYMENT', 'invalid_scheme'],
    ['an unknown x402 version', { x402Version: 3, scheme: 'exact', network: 'polygon' }, 'X-PAYMENT', 'invalid_x402_version'],
    ['a v2 payload in the v1 header', { x402Version: 2, scheme: 'exact', network: 'polygon' }, 'X-PAYMENT', 'invalid_x402_version'],
  ])('%s is refused', async (_name, envelope, headerName, reason) => {
    const payer = await fundedPayer(server);
    const payload = await signAuthorization(server, payer, QUOTE_PRICE);
    const header = encodeBase64Json({ ...envelope, payload });
    await expectNothingSettled(payer.address, async () => expectRefused(await payWith(header, QUOTE, headerName), reason));
  });

  it('a v2 payment that accepted other requirements (network, payTo, amount, asset) is refused', async () => {
    const payer = await fundedPayer(server);
    const accepted = {
      scheme: 'exact',
      network: 'eip155:137',
      amount: '100',
      asset: server.deps.chain.tokens.USDC,
      payTo: payToOf(server),
      maxTimeoutSeconds: 60,
      extra: { name: 'USD Coin', version: '2' },
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ network: 'eip155:8453' }, 'invalid_network'],
      [{ payTo: privateKeyToAccount(generatePrivateKey()).address }, 'invalid_exact_evm_payload_recipient_mismatch'],
      [{ amount: '99' }, 'invalid_exact_evm_payload_authorization_value'],
      [{ asset: '0x0Ee43635cE3b82E98C2f7bFcbc8F86CC9dFc470D' }, 'invalid_payment_requirements'],
    ];
    await expectNothingSettled(payer.address, async () => {
      for (const [change, reason] of cases) {
        const payload = await signAuthorization(server, payer, QUOTE_PRICE);
        const header = encodeBase64Json({ x402Version: 2, accepted: { ...accepted, ...change }, payload });
        expectRefused(await payWith(header, QUOTE, 'PAYMENT-SIGNATURE'), reason);
      }
    });
  });

  it.each([
    ['not base64', '%%%not base64%%%'],
    ['base64 of not JSON', Buffer.from('hello').toString('base64')],
    ['JSON without a payload', encodeBase64Json({ x402Version: 1, scheme: 'exact', network: 'polygon' })],
    [
      'a payload without a signature',
      encodeBase64Json({ x402Version: 1, scheme: 'exact', network: 'polygon', payload: { authorization: {} } }),
    ],
    [
      'a malformed nonce',
      encodeBase64Json({
        x402Version: 1,
        scheme: 'exact',
        network: 'polygon',
        payload: {
          signature: `0x${'11'.repeat(65)}`,
          authorization: {
            from: `0x${'22'.repeat(20)}`,
            to: `0x${'33'.repeat(20)}`,
            value: '100',
            validAfter: '0',
            validBefore: '9999999999',
            nonce: '0x12',
          },
        },
      }),
    ],
    [
      'a negative value',
      encodeBase64Json({
        x402Version: 1,
        scheme: 'exact',
        network: 'polygon',
        payload: {
          signature: `0x${'11'.repeat(65)}`,
          authorization: {
            from: `0x${'22'.repeat(20)}`,
            to: `0x${'33'.repeat(20)}`,
            value: '-100',
            validAfter: '0',
            validBefore: '9999999999',
            nonce: `0x${'44'.repeat(32)}`,
          },
        },
      }),
    ],
    [
      'a value beyond uint256',
      encodeBase64Json({
        x402Version: 1,
        scheme: 'exact',
        network: 'polygon',
        payload: {
          signature: `0x${'11'.repeat(65)}`,
          authorization: {
            from: `0x${'22'.repeat(20)}`,
            to: `0x${'33'.repeat(20)}`,
            value: '9'.repeat(78),
            validAfter: '0',
            validBefore: '9999999999',
            nonce: `0x${'44'.repeat(32)}`,
          },
        },
      }),
    ],
  ])('%s is invalid_payload, never a 500', async (_name, header) => {
    const books = await x402Books(server);
    expectRefused(await payWith(header), 'invalid_payload');
    expect((await x402Books(server)).settled).toBe(books.settled);
  });

  it('a signature that is not 65 bytes is refused as a bad signature', async () => {
    const payer = await fundedPayer(server);
    const { authorization } = await signAuthorization(server, payer, QUOTE_PRICE);
    const header = encodeBase64Json({
      x402Version: 1,
      scheme: 'exact',
      network: 'polygon',
      payload: { signature: `0x${'ab'.repeat(70)}`, authorization },
    });
    expectRefused(await payWith(header), 'invalid_exact_evm_payload_signature');
  });
});

describe('unusual but valid authorizations', () => {
  it('one that never expires (validBefore = 2^256 - 1) is accepted and settled', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE, { validAfter: 0n, validBefore: 2n ** 256n - 1n });
    const before = await usdcOf(server, payer.address);
    const response = await payWith(header);
    expect(response.status).toBe(200);
    expect(await usdcOf(server, payer.address)).toBe(before - QUOTE_PRICE);
    expectRefused(await payWith(header), 'duplicate_settlement');
  });
});

describe('two concurrent requests with one authorization', () => {
  it.each([2, 5])('%i at once: exactly one is served and the chain moves the price once', async (copies) => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    const [balance, payTo, books] = [await usdcOf(server, payer.address), await usdcOf(server, payToOf(server)), await x402Books(server)];
    const outboxBefore = await server.deps.db.selectFrom('hot_wallet_outbox').select('id').where('purpose', '=', 'x402').execute();

    const responses = await Promise.all(Array.from({ length: copies }, () => payWith(header)));
    const served = responses.filter((r) => r.status === 200);
    expect(served).toHaveLength(1);
    expect(served[0]!.body.fee).toBe(0.149);
    for (const refused of responses.filter((r) => r.status !== 200)) expectRefused(refused, 'duplicate_settlement');

    expect(await usdcOf(server, payer.address)).toBe(balance - QUOTE_PRICE);
    expect(await usdcOf(server, payToOf(server))).toBe(payTo + QUOTE_PRICE);
    const after = await x402Books(server);
    expect(after.settled).toBe(books.settled + 1);
    expect(after.revenue).toBe(books.revenue + QUOTE_PRICE);
    const outboxAfter = await server.deps.db.selectFrom('hot_wallet_outbox').select('id').where('purpose', '=', 'x402').execute();
    expect(outboxAfter.length).toBe(outboxBefore.length + 1);
  });
});

describe('paying with a key but a bad one', () => {
  it('an invalid API key is refused (401) even with a valid payment, and nothing is settled', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    await expectNothingSettled(payer.address, async () => {
      const response = await server.request('GET', QUOTE, { key: 'pa_live_nonsense', headers: { 'X-PAYMENT': header } });
      expect(response.status).toBe(401);
    });
    // The payment itself is still usable afterwards.
    const user = await registerUser(server);
    const ok = await server.request('GET', QUOTE, { key: user.key, headers: { 'X-PAYMENT': header } });
    expect(ok.status).toBe(200);
  });
});
