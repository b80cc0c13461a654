// The README's quick start, as a reader on a fresh machine would follow it: `npm start` (the
// compiled service, under a pseudo-terminal so that it prints its banner) in one terminal, then
// every ```sh block of "Try it" pasted in order into one bash in a second terminal. The only change
// made to the text is the one the README itself names: the URL in the tour's first line becomes
// the one the banner printed (the service runs with PORT=0 and a fresh DATA_DIR). Every block must
// exit 0 under `set -euo pipefail`, and what the tour says happened must show through the API.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, hasScript, npmStart, plainEnv, plainText, repoRoot, type RunningService } from '../helpers/built-service.js';
import { runsIf, PGLITE_PASS_ONLY } from '../helpers/runs-if.js';

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const TOUR_FIRST_LINE = /^PEERPAY=http:\/\/127\.0\.0\.1:3000$/;

/** The ```sh blocks of a part of the README, as written. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no "${heading}"`);
  const next = markdown.indexOf('\n## ', start + heading.length + 2);
  return markdown.slice(start, next === -1 ? undefined : next);
}

const tourBlocks = shellBlocks(section(readme, '## Try it'));

/** One bash script: each block between markers, then the variables the tour kept, for the checks. */
function tourScript(baseUrl: string): string {
  const lines = ['set -euo pipefail'];
  tourBlocks.forEach((block, index) => {
    const text = index === 0 ? block.replace(/^PEERPAY=http:\/\/127\.0\.0\.1:3000$/m, `PEERPAY=${baseUrl}`) : block;
    lines.push(`printf '\\n::block %d start\\n' ${index + 1}`, text, `printf '\\n::block %d ok\\n' ${index + 1}`);
  });
  for (const name of ['ADA_KEY', 'ALAN_KEY', 'ALAN_HANDLE', 'ADA_DEPOSIT_ADDRESS']) lines.push(`echo "::var ${name}=$${name}"`);
  return lines.join('\n');
}

async function runBash(script: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-c', script], { cwd: os.tmpdir(), env: plainEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output };
}

async function get(baseUrl: string, route: string, key: string): Promise<any> {
  const response = await fetch(`${baseUrl}${route}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status, route).toBe(200);
  return response.json();
}

describe('the README', () => {
  it('begins with exactly the two commands, and its tour starts by naming the service', () => {
    const first = shellBlocks(readme)[0];
    expect(first).toBe('npm ci && npm start\nnpm ci && npm test\n');
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
    expect(tourBlocks.length).toBeGreaterThanOrEqual(8);
    expect(tourBlocks[0]!.split('\n')[0]).toMatch(TOUR_FIRST_LINE);
    // Pasted into zsh, a comment is a command or an argument: the blocks have none.
    for (const block of tourBlocks) expect(block).not.toMatch(/(^|\s)#(\s|$)/m);
  });
});

// One pass is enough: the tour runs on what a reader has (PGlite), also in the PostgreSQL pass.
describe.runIf(runsIf(!process.env.DATABASE_URL, PGLITE_PASS_ONLY))('the README tour', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-readme-'));
  const terminal = hasScript();
  let service: RunningService | undefined;
  let baseUrl = '';
  let startedMs = 0;

  beforeAll(async () => {
    await ensureBuilt();
    const started = Date.now();
    service = npmStart({ env: { PORT: '0', DATA_DIR: dataDir }, terminal });
    baseUrl = await service.url();
    startedMs = Date.now() - started;
  }, 180_000);

  afterAll(async () => {
    try {
      if (!service) return;
      // Ctrl+C: peerpay shuts down cleanly and exits 0; npm then ends as interrupted (130), as a shell expects.
      const code = await service.stop();
      expect(plainText(service.output())).toContain('shutting down');
      expect(terminal ? [0, 130] : [0]).toContain(code);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('npm start prints its banner, under a terminal, once it answers', async () => {
    const text = plainText(service!.output());
    if (terminal) {
      expect(text).toMatch(/peerpay is starting in sandbox mode; this first start creates the database and the chain in /);
      expect(text).toMatch(/peerpay \S+ is ready in sandbox mode \(\d+\.\d s\)/);
      expect(text).toMatch(new RegExp(`^ {2}API docs +${baseUrl.replace(/[.]/g, '\\.')}/docs$`, 'm'));
      expect(text).toMatch(/^ {2}Chain +anvil \(embedded\), chain id 137, RPC http:\/\/127\.0\.0\.1:\d+$/m);
      expect(text).toMatch(/Ctrl\+C/);
      expect(text).not.toMatch(/^\{"level"/m);
    }
    expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
    console.log(`readme tour: npm start printed ${baseUrl} after ${startedMs} ms (first start, ${terminal ? 'terminal' : 'no terminal'})`);
  });

  it('runs every block in order, each exiting 0, and does what it says', async () => {
    const started = Date.now();
    const { code, output } = await runBash(tourScript(baseUrl), 150_000);
    const ok = [...output.matchAll(/^::block (\d+) ok$/gm)].length;
    expect(code, `block ${ok + 1} of ${tourBlocks.length} failed:\n${output.slice(-6000)}`).toBe(0);
    expect(ok).toBe(tourBlocks.length);
    console.log(`readme tour: ${tourBlocks.length} blocks in ${Date.now() - started} ms`);

    const vars = Object.fromEntries([...output.matchAll(/^::var (\w+)=(.*)$/gm)].map((match) => [match[1], match[2]]));
    expect(vars.ADA_KEY).toMatch(/^pa_live_/);
    expect(vars.ALAN_KEY).toMatch(/^pa_live_/);
    expect(vars.ALAN_HANDLE).toMatch(/^PA-[A-Z0-9]{8}$/);
    expect(vars.ADA_DEPOSIT_ADDRESS).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(output).toContain('200 card saved');

    // The card payment: 10.00 USD to Alan.
    const alanFiat = await get(baseUrl, '/balance', vars.ALAN_KEY);
    expect(alanFiat.balances.find((b: { currency: string }) => b.currency === 'USD')).toEqual({
      currency: 'USD',
      available: '10.00',
      pending: '0.00',
      held: '0.00',
      owed: '0.00',
    });
    const alanFiatHistory = await get(baseUrl, '/transfers', vars.ALAN_KEY);
    expect(alanFiatHistory.transfers).toHaveLength(1);
    expect(alanFiatHistory.transfers[0]).toMatchObject({ direction: 'received', amount: '10.00', currency: 'USD', status: 'completed' });

    // The faucet deposit (100), the transfer (10) and the quote paid from balance (0.0001): Ada keeps 89.9999.
    expect((await get(baseUrl, '/stablecoin/balance', vars.ADA_KEY)).USDC).toBe('89.999900');
    // 9.851 received, 5 withdrawn: Alan keeps 4.851, and the withdrawal is complete on chain.
    expect((await get(baseUrl, '/stablecoin/balance', vars.ALAN_KEY)).USDC).toBe('4.851000');
    const alanChainHistory = await get(baseUrl, '/stablecoin/transfers', vars.ALAN_KEY);
    expect(alanChainHistory.transfers[0]).toMatchObject({
      type: 'withdrawal',
      status: 'complete',
      amount: 5,
      recipientAmount: 4.9255,
      address: '0x000000000000000000000000000000000000dEaD',
    });
    expect(alanChainHistory.transfers[1]).toMatchObject({ type: 'transfer', direction: 'received', amount: 9.851, status: 'complete' });

    // Unpaid, a micro-endpoint answers 402 with what to pay; paid from balance, it answers.
    const x402Block = output.slice(output.indexOf(`::block ${tourBlocks.length} start`));
    expect(x402Block).toMatch(/^HTTP\/1\.1 402 Payment Required/m);
    expect(x402Block).toMatch(/^payment-required: /im);
    expect(x402Block).toContain('"recipientReceives":9.851');
  }, 180_000);
});
