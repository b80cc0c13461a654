// The README's webhooks walk-through ("Events and webhooks"), as a reader would follow it: `npm
// start` in one terminal; in a second, the tour's first two blocks (the service's URL, `field`, two
// users), then every ```sh block of the webhooks section in order, in the same bash: the endpoint is
// created with Ada's key and its secret kept, standardwebhooks is installed in a temporary folder,
// the receiver is saved there and started with the secret, a deposit is delivered to it, and it is
// stopped. The only changes made to the text are the ones the README names: the URL in the tour's
// first line and the receiver's port in the webhooks' first line.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, npmStart, plainEnv, repoRoot, type RunningService } from '../helpers/built-service.js';
import { freePort } from '../helpers/free-port.js';
import { PGLITE_PASS_ONLY, runsIf } from '../helpers/runs-if.js';

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no "${heading}"`);
  const next = markdown.indexOf('\n## ', start + heading.length + 2);
  return markdown.slice(start, next === -1 ? undefined : next);
}

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

const tourBlocks = shellBlocks(section(readme, '## Try it'));
const webhookBlocks = shellBlocks(section(readme, '## Events and webhooks'));
const RECEIVER_PORT_LINE = /^RECEIVER_PORT=4000$/m;

function script(baseUrl: string, receiverPort: number): string {
  const blocks = [
    tourBlocks[0]!.replace(/^PEERPAY=http:\/\/127\.0\.0\.1:3000$/m, `PEERPAY=${baseUrl}`),
    tourBlocks[1]!,
    webhookBlocks[0]!.replace(RECEIVER_PORT_LINE, `RECEIVER_PORT=${receiverPort}`),
    ...webhookBlocks.slice(1),
  ];
  const lines = ['set -euo pipefail'];
  blocks.forEach((block, index) => {
    lines.push(`printf '\\n::block %d start\\n' ${index + 1}`, block, `printf '\\n::block %d ok\\n' ${index + 1}`);
  });
  for (const name of ['ADA_KEY', 'ENDPOINT_ID', 'RECEIVER_DIR']) lines.push(`echo "::var ${name}=$${name}"`);
  return lines.join('\n');
}

describe('the README webhooks section', () => {
  it('creates the endpoint first and keeps its secret, then installs, saves and starts the receiver with it', () => {
    expect(webhookBlocks.length).toBeGreaterThanOrEqual(5);
    expect(webhookBlocks[0]).toMatch(RECEIVER_PORT_LINE);
    const order = ['/webhook-endpoints', 'npm install', 'receiver.mjs', 'PEERPAY_WEBHOOK_SECRET="$WEBHOOK_SECRET"'].map((text) =>
      webhookBlocks.findIndex((block) => block.includes(text)),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(webhookBlocks[0]).toContain('Bearer $ADA_KEY');
    expect(webhookBlocks[0]).toMatch(/^WEBHOOK_SECRET=\$\(field secret/m);
    // Never into peerpay's own folder: the install names a folder of its own.
    expect(webhookBlocks.find((block) => block.includes('npm install'))).toMatch(/npm install --prefix "\$RECEIVER_DIR"/);
    // Pasted into zsh, a comment is a command or an argument: outside the receiver's text, none.
    for (const block of webhookBlocks) expect(block.replace(/<<'EOF'\n[\s\S]*?^EOF$/m, '')).not.toMatch(/(^|\s)#(\s|$)/m);
  });
});

// One pass is enough: like the tour, on what a reader has (PGlite).
describe.runIf(runsIf(!process.env.DATABASE_URL, PGLITE_PASS_ONLY))('the README webhooks walk-through', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-readme-webhooks-'));
  let service: RunningService | undefined;
  let shell: ChildProcess | undefined;
  let baseUrl = '';
  let receiverDir = '';

  beforeAll(async () => {
    await ensureBuilt();
    service = npmStart({ env: { PORT: '0', DATA_DIR: dataDir }, terminal: false });
    baseUrl = await service.url();
  }, 180_000);

  afterAll(async () => {
    // A block that failed may have left the receiver running: its shell's process group goes.
    if (shell?.pid) {
      try {
        process.kill(-shell.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await service?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (receiverDir.startsWith(os.tmpdir())) fs.rmSync(receiverDir, { recursive: true, force: true });
  }, 60_000);

  it('runs every block in order, each exiting 0: the receiver verifies and prints the delivered event', async () => {
    const receiverPort = await freePort();
    // prefer-offline: npm takes standardwebhooks from its cache (npm ci put it there) when it can.
    shell = spawn('bash', ['-c', script(baseUrl, receiverPort)], {
      cwd: os.tmpdir(),
      env: plainEnv({ npm_config_prefer_offline: 'true' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    shell.stdout!.on('data', (chunk) => (output += chunk));
    shell.stderr!.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => process.kill(-shell!.pid!, 'SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => shell!.once('exit', (exitCode) => resolve(exitCode)));
    clearTimeout(timer);
    const total = 2 + webhookBlocks.length;
    const ok = [...output.matchAll(/^::block (\d+) ok$/gm)].length;
    expect(code, `block ${ok + 1} of ${total} failed:\n${output.slice(-6000)}`).toBe(0);
    expect(ok).toBe(total);

    const vars = Object.fromEntries([...output.matchAll(/^::var (\w+)=(.*)$/gm)].map((match) => [match[1], match[2]]));
    receiverDir = vars.RECEIVER_DIR!;
    expect(receiverDir.startsWith(os.tmpdir())).toBe(true);
    expect(fs.existsSync(path.join(receiverDir, 'node_modules', 'standardwebhooks', 'package.json'))).toBe(true);
    // What the receiver printed is the event as GET /events shows it.
    const events = (await (await fetch(`${baseUrl}/events`, { headers: { authorization: `Bearer ${vars.ADA_KEY}` } })).json()) as {
      events: Array<{ id: string; type: string; data: unknown }>;
    };
    const credited = events.events.find((event) => event.type === 'deposit.credited');
    expect(credited).toBeDefined();
    expect(output).toContain(`\ndeposit.credited ${credited!.id} ${JSON.stringify(credited!.data)}\n`);
    // The walk-through ends with the endpoint removed and the receiver stopped.
    const endpoints = await fetch(`${baseUrl}/webhook-endpoints`, { headers: { authorization: `Bearer ${vars.ADA_KEY}` } });
    expect(((await endpoints.json()) as { endpoints: unknown[] }).endpoints).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${receiverPort}/`)).rejects.toThrow();
  }, 150_000);
});
