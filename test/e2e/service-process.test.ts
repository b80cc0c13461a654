// peerpay as a newcomer runs it: the compiled service (`node dist/main.js`) in its own process, in sandbox mode with its data
// in DATA_DIR. The scripted journey runs against it; SIGTERM shuts it down cleanly; a restart
// keeps every account and balance.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createPublicClient, http, parseAbi, type Address } from 'viem';
import { runJourney, runStablecoinJourney } from '../../scripts/journey.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { freePort } from '../helpers/free-port.js';
import { distMain } from '../helpers/built-service.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-e2e-'));
const postgres = await createPostgresTestDatabase();
afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Service {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
}

async function startService(): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', PEERPAY_MODE: 'sandbox' };
  if (postgres) env.DATABASE_URL = postgres.url;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, [distMain], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${output}`);
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) return { child, baseUrl, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not start: ${output}`);
}

async function stopService(service: Service): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => service.child.once('exit', (code) => resolve(code)));
  service.child.kill('SIGTERM');
  return exited;
}

const usdcOf = async (baseUrl: string, key: string) =>
  (await (await fetch(`${baseUrl}/stablecoin/balance`, { headers: { authorization: `Bearer ${key}` } })).json()).USDC;

it('runs both journeys, shuts down on SIGTERM, and keeps its data, on the chain and in the ledger, across a restart', async () => {
  const first = await startService();
  const lines: string[] = [];
  const { recipientKey, recipientHandle } = await runJourney(first.baseUrl, { sandboxClock: 'advance' }, (line) => lines.push(line));
  expect(lines.at(-1)).toBe('journey complete');
  const stablecoin = await runStablecoinJourney(first.baseUrl, (line) => lines.push(line));
  expect(lines.at(-1)).toBe('stablecoin journey complete');
  console.log(`stablecoin timings: ${JSON.stringify(stablecoin.timings)}`);
  expect(await stopService(first)).toBe(0);
  const logs = first.output();
  expect(logs).toContain('peerpay is listening');
  expect(logs).toContain('shutting down');
  expect(logs).not.toContain(recipientKey);
  expect(logs).not.toContain('correct horse battery');

  const second = await startService();
  try {
    const check = await (await fetch(`${second.baseUrl}/agents/check?handle=${recipientHandle}`)).json();
    expect(check.exists).toBe(true);
    const balance = await (await fetch(`${second.baseUrl}/balance`, { headers: { authorization: `Bearer ${recipientKey}` } })).json();
    expect(balance.balances.find((b: { currency: string }) => b.currency === 'USD')).toMatchObject({ available: '30.00', pending: '0.00' });
    // The chain came back from DATA_DIR: the withdrawal is still there, and after several rounds of
    // the chain jobs (1 s apart) nothing has been credited twice.
    const health = await (await fetch(`${second.baseUrl}/health`)).json();
    const chain = createPublicClient({ transport: http(health.chain.rpcUrl) });
    const onChain = await chain.readContract({
      address: health.chain.tokens.USDC as Address,
      abi: parseAbi(['function balanceOf(address) view returns (uint256)']),
      functionName: 'balanceOf',
      args: [stablecoin.withdrawalAddress],
    });
    expect(onChain).toBe(4_925_500n);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(await usdcOf(second.baseUrl, stablecoin.aliceKey)).toBe('115.000000');
    expect(await usdcOf(second.baseUrl, stablecoin.bobKey)).toBe('4.851000');
  } finally {
    expect(await stopService(second)).toBe(0);
  }
}, 120_000);
