// The peerpay command, run as a real process against a sandbox service: register (key saved 0600,
// never printed), balance, quote, links, history and withdraw with --json; send asks on a terminal
// (a pseudo-terminal through `script`) and moves money only on a yes, refuses without a terminal or
// --yes, and names the next step (a card setup link) when the service refuses. Then `peerpay mcp`
// with the official MCP client over stdio: the same tools and confirmation rules as POST /mcp.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { freshAddress, fundHotWallet, onChainBalance } from '../helpers/withdrawals.js';
import { callTool, ElicitationScript, mcpClient, startClientsServer, type ClientsServer } from './support.js';

const BIN = path.resolve('node_modules/.bin/peerpay');
let env: ClientsServer;
const configDirs: string[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  env = await startClientsServer();
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await env?.close();
  for (const dir of configDirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function newConfigDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-cli-'));
  configDirs.push(dir);
  return dir;
}

/** Runs the binary; `input` is written to its stdin (then closed). */
function peerpay(args: string[], options: { configDir: string; input?: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, {
      env: { ...process.env, PEERPAY_URL: env.url, PEERPAY_CONFIG_DIR: options.configDir, PEERPAY_API_KEY: '', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the binary on a pseudo-terminal (util-linux `script`), answering `answer` once `prompt` appears. */
function onTerminal(args: string[], options: { configDir: string; prompt: string; answer: string }): Promise<Run> {
  const command = [BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { ...process.env, PEERPAY_URL: env.url, PEERPAY_CONFIG_DIR: options.configDir, PEERPAY_API_KEY: '' },
    });
    let stdout = '';
    let answered = false;
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!answered && stdout.includes(options.prompt)) {
        answered = true;
        child.stdin.write(options.answer + '\r');
      }
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: '' }));
  });
}

async function registered(): Promise<{ configDir: string; email: string; handle: string; key: string }> {
  const configDir = newConfigDir();
  const email = `cli-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const run = await peerpay(['register', '--email', email, '--name', 'Casey Cli', '--password-stdin', '--json'], {
    configDir,
    input: 'correct horse battery\n',
  });
  expect(run.code, run.stderr).toBe(0);
  const saved = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8'));
  return { configDir, email, handle: JSON.parse(run.stdout).handle, key: saved.apiKey };
}

describe('peerpay (CLI)', () => {
  it('registers, keeps the key in a 0600 file and never prints it; logs in again with a new key', async () => {
    const { configDir, email, handle, key } = await registered();
    const file = path.join(configDir, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(key).toMatch(/^pa_live_/);
    expect(handle).toMatch(/^PA-/);
    const login = await peerpay(['login', '--email', email], { configDir, env: { PEERPAY_PASSWORD: 'correct horse battery' } });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in as ${handle}`);
    const newKey = JSON.parse(fs.readFileSync(file, 'utf8')).apiKey;
    expect(newKey).not.toBe(key);
    expect(login.stdout + login.stderr).not.toContain(newKey);
    const wrong = await peerpay(['login', '--email', email, '--json'], { configDir, env: { PEERPAY_PASSWORD: 'wrong horse battery' } });
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout).error.code).toBe('invalid_credentials');
  });

  it('answers balance, quote, links and history with --json, and usage errors with exit 2', async () => {
    const me = await registered();
    const bob = await env.user();
    const balance = await peerpay(['balance', '--json'], { configDir: me.configDir });
    expect(balance.code, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout).stablecoin).toEqual({ USDC: '0.000000', EURC: '0.000000' });
    const quote = await peerpay(['--json', 'quote', bob.email, '20', 'eur', '--method', 'ach'], { configDir: me.configDir });
    expect(JSON.parse(quote.stdout)).toMatchObject({
      amount: '20.00',
      fee: '0.16',
      totalDeducted: '20.16',
      currency: 'EUR',
      recipient: { handle: bob.handle },
    });
    const link = await peerpay(['links', 'card', '--json'], { configDir: me.configDir });
    expect(JSON.parse(link.stdout).url).toMatch(/^http/);
    const history = await peerpay(['history', '--rail', 'stablecoin', '--json'], { configDir: me.configDir });
    expect(JSON.parse(history.stdout)).toEqual({ transfers: [], nextCursor: null });
    const bad = await peerpay(['quote', bob.handle, 'ten', 'USD'], { configDir: me.configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid_amount');
    expect((await peerpay(['history', '--rail', 'cheques'], { configDir: me.configDir })).code).toBe(2);
  });

  it('send shows the terms and asks; moves money only on a yes', async () => {
    const me = await registered();
    const bob = await env.user();
    const refusedCard = await peerpay(['send', bob.handle, '10', 'USD', '--yes'], { configDir: me.configDir });
    expect(refusedCard.code).toBe(1);
    // The next step is the setup link itself.
    expect(refusedCard.stderr).toMatch(/No card yet: open this link to add one: http\S+\/links?\//);

    await env.setUpCard(me);
    const noTerminal = await peerpay(['send', bob.handle, '10', 'USD'], { configDir: me.configDir });
    expect(noTerminal.code).toBe(3);
    expect(noTerminal.stdout).toMatch(/Send 10\.00 USD to "Test[a-j]+" \(handle PA-\w+\) by card\. Fee 0\.25 USD/);

    const no = await onTerminal(['send', bob.handle, '10', 'USD'], { configDir: me.configDir, prompt: 'Send? [y/N]', answer: 'n' });
    expect(no.stdout).toContain('Nothing was sent.');
    expect((await bob.api.getBalance()).balances.find((b) => b.currency === 'USD')!.available).toBe('0.00');

    const yes = await onTerminal(['send', bob.handle, '10', 'USD', '--note', 'lunch'], {
      configDir: me.configDir,
      prompt: 'Send? [y/N]',
      answer: 'y',
    });
    expect(yes.code, yes.stdout).toBe(0);
    expect(yes.stdout).toMatch(/Sent 10\.00 USD to PA-\w+ \(fee 0\.25\); status completed/);
    expect((await bob.api.getBalance()).balances.find((b) => b.currency === 'USD')!.available).toBe('10.00');
  });

  it('withdraws with --yes to the address given', async () => {
    const me = await registered();
    await env.fund(me, 10_000_000n);
    await fundHotWallet(env.server, 10_000_000n);
    const address = freshAddress();
    const run = await peerpay(['withdraw', '5', 'USDC', '--address', address, '--yes', '--json'], { configDir: me.configDir });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ gross: 5, net: 4.9255, address });
    expect(await onChainBalance(env.server, address)).toBe(4_925_500n);
  });

  it('npx peerpay works from the repository root', async () => {
    const run = await new Promise<Run>((resolve) => {
      const child = spawn('npx', ['--no-install', 'peerpay', '--help'], { cwd: path.resolve('.') });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr: '' }));
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('send [options] <to> <amount> <currency>');
  });
});

describe('peerpay mcp (stdio)', () => {
  async function stdioClient(key: string, script?: ElicitationScript): Promise<Client> {
    const transport = new StdioClientTransport({
      command: BIN,
      args: ['mcp'],
      env: { ...(process.env as Record<string, string>), PEERPAY_URL: env.url, PEERPAY_API_KEY: key, PEERPAY_CONFIG_DIR: newConfigDir() },
      stderr: 'pipe',
    });
    const client = await mcpClient(transport, script);
    clients.push(client);
    return client;
  }

  it('serves the same tools; without elicitation money moves once, after the confirmed second call', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 30_000_000n, 'EURC');
    const client = await stdioClient(alice.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'check_account',
      'create_link',
      'get_balances',
      'get_deposit_address',
      'get_limits',
      'list_transfers',
      'quote_transfer',
      'send_money',
      'withdraw',
    ]);

    const send = { to: bob.email, amount: '12.5', currency: 'EURC' };
    const first = await callTool(client, 'send_money', send);
    expect(first.structuredContent).toMatchObject({ status: 'confirmation_required', terms: { recipientHandle: bob.handle } });
    expect((await bob.api.getStablecoinBalance()).EURC).toBe('0.000000');
    const unknown = await callTool(client, 'send_money', {
      ...send,
      to: 'PA-ZZZZZZZZ',
      confirmationId: first.structuredContent.confirmationId,
    });
    expect(unknown).toMatchObject({ isError: true, structuredContent: { code: 'recipient_not_found' } });
    const changed = await callTool(client, 'send_money', {
      ...send,
      amount: '12.49',
      confirmationId: first.structuredContent.confirmationId,
    });
    expect(changed).toMatchObject({ isError: true, structuredContent: { code: 'confirmation_terms_changed' } });
    // The same terms, the amount written as a number this time.
    const confirmed = await callTool(client, 'send_money', {
      ...send,
      amount: 12.5,
      confirmationId: first.structuredContent.confirmationId,
    });
    expect(confirmed.isError, confirmed.text).toBeFalsy();
    const again = await callTool(client, 'send_money', { ...send, confirmationId: first.structuredContent.confirmationId });
    expect(again).toMatchObject({ isError: true, structuredContent: { code: 'confirmation_used' } });
    expect((await bob.api.getStablecoinBalance()).EURC).toBe('12.313750');
    expect((await alice.api.getStablecoinBalance()).EURC).toBe('17.500000');
  });

  it('asks by elicitation when the client supports it: a decline moves nothing, an accept moves once', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 5_000_000n);
    const script = new ElicitationScript();
    const client = await stdioClient(alice.key, script);
    script.next = { action: 'decline' };
    expect(await callTool(client, 'send_money', { to: bob.handle, amount: '1', currency: 'USDC' })).toMatchObject({
      structuredContent: { status: 'not_confirmed' },
    });
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('0.000000');
    script.next = { action: 'accept', content: { confirm: true } };
    expect(await callTool(client, 'send_money', { to: bob.handle, amount: '1', currency: 'USDC' })).toMatchObject({
      structuredContent: { status: 'complete' },
    });
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('0.985100');
    expect(script.asked).toHaveLength(2);
  });
});
