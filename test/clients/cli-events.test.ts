// `peerpay events` run as a real process against a sandbox service: a page of the caller's events
// (text and --json), and --follow printing events as they happen, one JSON event per line.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEERPAY_BIN, runCli, startClientsServer, type ClientsServer } from './support.js';

const BIN = PEERPAY_BIN;
let env: ClientsServer;

beforeAll(async () => {
  env = await startClientsServer();
});
afterAll(async () => {
  await env?.close();
});

function peerpay(args: string[], key: string) {
  return runCli({ url: env.url, key, args });
}

describe('peerpay events', () => {
  it('lists the caller’s events, oldest first, as text and with --json', async () => {
    const sender = await env.user();
    const recipient = await env.user();
    await env.fund(sender, 5_000_000n);
    await sender.api.createAgentTransfer({ body: { to: recipient.handle, amount: 1, currency: 'USDC' } });
    const text = await peerpay(['events'], recipient.key);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/transfer\.received {2}received 0\.9851 USDC complete PA-/);
    const json = await peerpay(['events', '--json'], recipient.key);
    const page = JSON.parse(json.stdout);
    expect(page.events.map((e: { type: string }) => e.type)).toEqual(['transfer.received']);
    expect(page.nextCursor).toBe(page.events[0].id);
    const after = await peerpay(['events', '--json', '--after', page.nextCursor], recipient.key);
    expect(JSON.parse(after.stdout).events).toEqual([]);
    const none = await peerpay(['events'], (await env.user()).key);
    expect(none.stdout).toContain('No events.');
  });

  it('--follow prints each new event as it happens, one JSON line each', async () => {
    const sender = await env.user();
    const recipient = await env.user();
    await env.fund(sender, 10_000_000n);
    const child = spawn(BIN, ['events', '--follow', '--json', '--interval', '200'], {
      env: { ...process.env, PEERPAY_URL: env.url, PEERPAY_API_KEY: recipient.key, PEERPAY_CONFIG_DIR: '/nonexistent' },
    });
    const lines: string[] = [];
    let buffered = '';
    const waiters: Array<() => void> = [];
    child.stdout.on('data', (d) => {
      buffered += d;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts.filter(Boolean));
      for (const wake of waiters.splice(0)) wake();
    });
    const linesReach = async (n: number) => {
      while (lines.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    try {
      for (let n = 1; n <= 3; n++) {
        const sent = await sender.api.createAgentTransfer({ body: { to: recipient.handle, amount: n, currency: 'USDC' } });
        await linesReach(n);
        expect(JSON.parse(lines[n - 1]!)).toMatchObject({ type: 'transfer.received', data: { id: sent.transferId } });
      }
    } finally {
      child.kill('SIGINT');
    }
    expect(lines).toHaveLength(3);
  });
});
