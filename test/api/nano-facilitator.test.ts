// X402_FACILITATOR_URL: peerpay verifies and settles through an external facilitator's /verify and
// /settle (with @x402/core's HTTP client) instead of its built-in one. The facilitator here is a
// real one, run by the test on 127.0.0.1: @x402/core's x402Facilitator with @x402/evm's exact
// scheme, relaying from its own account (with its own gas) on peerpay's embedded chain.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, http, publicActions } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator';
import { chainFor } from '../../src/adapters/chain/viem-chain.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { fundedPayer, handMadeV1Header, payToOf, QUOTE_PRICE, SEARCH_PRICE, usdcOf, v1Fetch, v2Fetch, x402Books } from '../helpers/nano.js';

let server: TestServer;
let facilitatorHttp: Server;
let facilitator: x402Facilitator | null = null;
const calls: string[] = [];
/** When set, the next /verify answers 400 with this invalidReason, as a facilitator that refuses does. */
let refuseNextVerify: string | null = null;

function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  facilitatorHttp = createServer((req, res) => void answerFacilitator(req, res));
  async function answerFacilitator(req: IncomingMessage, res: ServerResponse): Promise<void> {
    calls.push(`${req.method} ${req.url}`);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (!facilitator) return reply(503, { error: 'not ready' });
      if (req.method === 'GET' && req.url === '/supported') return reply(200, facilitator.getSupported());
      const { paymentPayload, paymentRequirements } = JSON.parse(await readBody(req));
      if (req.url === '/verify') {
        if (refuseNextVerify) {
          const invalidReason = refuseNextVerify;
          refuseNextVerify = null;
          return reply(400, { isValid: false, invalidReason, payer: paymentPayload.payload?.authorization?.from });
        }
        return reply(200, await facilitator.verify(paymentPayload, paymentRequirements));
      }
      if (req.url === '/settle') return reply(200, await facilitator.settle(paymentPayload, paymentRequirements));
      reply(404, { error: 'no such endpoint' });
    } catch (error) {
      reply(500, { error: String(error) });
    }
  }
  await new Promise<void>((resolve) => facilitatorHttp.listen(0, '127.0.0.1', resolve));
  const { port } = facilitatorHttp.address() as AddressInfo;
  server = await startTestServer({ X402_FACILITATOR_URL: `http://127.0.0.1:${port}` });

  const relayer = privateKeyToAccount(generatePrivateKey());
  await server.deps.chain.sandboxChain!.setNativeBalance({ address: relayer.address, wei: 10n ** 18n });
  const rpcUrl = server.deps.chain.rpcUrl;
  const client = createWalletClient({ account: relayer, chain: chainFor({ chainId: 137, rpcUrl }), transport: http(rpcUrl) }).extend(
    publicActions,
  );
  const signer = toFacilitatorEvmSigner(Object.assign(client, { address: relayer.address }) as never, { confirmationTimeoutMs: 15_000 });
  facilitator = new x402Facilitator();
  facilitator.register('eip155:137', new ExactEvmScheme(signer));
  facilitator.registerV1('polygon' as `${string}:${string}`, new ExactEvmSchemeV1(signer));
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => facilitatorHttp?.close(resolve));
});

describe('an external facilitator', () => {
  it.each([
    ['v1', (payer: any) => v1Fetch(payer)],
    ['v2', (payer: any) => v2Fetch(server, payer)],
  ])('verifies and settles a %s payment; peerpay serves only after it settled', async (_version, client) => {
    const payer = await fundedPayer(server);
    const [payerBefore, payToBefore, books] = [
      await usdcOf(server, payer.address),
      await usdcOf(server, payToOf(server)),
      await x402Books(server),
    ];
    calls.length = 0;
    const response = await client(payer)(`${server.url}/nano/search?q=nobody`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ results: [] });
    expect(calls).toEqual(['POST /verify', 'POST /settle']);
    expect(await usdcOf(server, payer.address)).toBe(payerBefore - SEARCH_PRICE);
    expect(await usdcOf(server, payToOf(server))).toBe(payToBefore + SEARCH_PRICE);
    const after = await x402Books(server);
    expect(after.settled).toBe(books.settled + 1);
    expect(after.revenue).toBe(books.revenue + SEARCH_PRICE);
    // The facilitator relayed it: peerpay's hot wallet sent nothing.
    const relays = await server.deps.db.selectFrom('hot_wallet_outbox').select('id').where('purpose', '=', 'x402').execute();
    expect(relays).toHaveLength(0);
  });

  it('a refusal by the facilitator (non-2xx with a reason) is a 402 with the specification’s reason, nothing settled', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    const before = await usdcOf(server, payer.address);
    refuseNextVerify = 'invalid_exact_evm_signature';
    const response = await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } });
    expect(response.status).toBe(402);
    expect(response.body.error).toBe('invalid_exact_evm_payload_signature');
    expect(await usdcOf(server, payer.address)).toBe(before);
  });

  it('peerpay’s own checks still apply before the facilitator is asked (replay)', async () => {
    const payer = await fundedPayer(server);
    const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
    expect((await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } })).status).toBe(200);
    calls.length = 0;
    const replay = await server.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } });
    expect(replay.status).toBe(402);
    expect(replay.body.error).toBe('duplicate_settlement');
    expect(calls).toEqual([]);
  });
});

describe('a facilitator that cannot be reached', () => {
  it('is a 402 unexpected_verify_error, never a 500, and nothing is settled', async () => {
    const unreachable = await startTestServer({ X402_FACILITATOR_URL: 'http://127.0.0.1:9' });
    try {
      const payer = await fundedPayer(unreachable);
      const header = await handMadeV1Header(unreachable, payer, QUOTE_PRICE);
      const response = await unreachable.request('GET', '/nano/quote?amount=1', { headers: { 'X-PAYMENT': header } });
      expect(response.status).toBe(402);
      expect(response.body.error).toBe('unexpected_verify_error');
      expect(await usdcOf(unreachable, payer.address)).toBe(1_000_000n);
    } finally {
      await unreachable.close();
    }
  });
});
