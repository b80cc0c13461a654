// Latency of paid requests on the embedded chain: 30 sequential paid calls, each verified, relayed
// through the hot wallet outbox, mined and recorded before the answer. Measured two ways: the paid
// request alone (a payment signed beforehand) and the whole x402-fetch round trip (402, sign,
// paid retry). The figures are printed; the bound asserted is loose, for slow CI machines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/helpers/test-server.js';
import { fundedPayer, handMadeV1Header, QUOTE_PRICE, usdcOf, v1Fetch } from '../test/helpers/nano.js';

const RUNS = 30;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'warn' });
});
afterAll(async () => {
  await server?.close();
});

function summary(samples: number[]): { median: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { median: Number(at(0.5).toFixed(1)), p99: Number(at(0.99).toFixed(1)), max: Number(sorted[sorted.length - 1]!.toFixed(1)) };
}

describe('paid request latency', () => {
  it(`${RUNS} sequential paid requests (pre-signed X-PAYMENT)`, async () => {
    const payer = await fundedPayer(server);
    const before = await usdcOf(server, payer.address);
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const header = await handMadeV1Header(server, payer, QUOTE_PRICE);
      const started = performance.now();
      const response = await server.request('GET', '/nano/quote?amount=10', { headers: { 'X-PAYMENT': header } });
      samples.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    expect(await usdcOf(server, payer.address)).toBe(before - BigInt(RUNS) * QUOTE_PRICE);
    const stats = summary(samples);
    console.log(
      `x402 paid request (settled on chain before answering), ${RUNS} runs: median ${stats.median} ms, p99 ${stats.p99} ms, max ${stats.max} ms`,
    );
    expect(stats.median).toBeLessThan(2000);
  }, 120_000);

  it(`${RUNS} sequential x402-fetch round trips (402, sign, paid retry)`, async () => {
    const payer = await fundedPayer(server);
    const pay = v1Fetch(payer);
    const samples: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const response = await pay(`${server.url}/nano/quote?amount=10`);
      await response.text();
      samples.push(performance.now() - started);
      expect(response.status).toBe(200);
    }
    const stats = summary(samples);
    console.log(
      `x402-fetch round trip (402 + paid request), ${RUNS} runs: median ${stats.median} ms, p99 ${stats.p99} ms, max ${stats.max} ms`,
    );
    expect(stats.median).toBeLessThan(3000);
  }, 120_000);
});
