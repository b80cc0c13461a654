// `peerpay events --after` pages through more events than one page holds, by following the "More"
// line it prints: each page starts right after the previous one, keeps its size, none is skipped
// or repeated, and the last page offers no more.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientsServer, type ClientsServer } from './support.js';

const BIN = path.resolve('node_modules/.bin/peerpay');
let env: ClientsServer;

beforeAll(async () => {
  env = await startClientsServer();
});
afterAll(async () => {
  await env?.close();
});

function peerpay(args: string[], key: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, {
      env: { ...process.env, PEERPAY_URL: env.url, PEERPAY_API_KEY: key, PEERPAY_CONFIG_DIR: '/nonexistent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}

describe('peerpay events --after', () => {
  it('pages through more events than one page holds by following the More line', async () => {
    const sender = await env.user();
    const recipient = await env.user();
    await env.fund(sender, 50_000_000n);
    for (let n = 1; n <= 7; n++) await sender.api.createAgentTransfer({ body: { to: recipient.handle, amount: n, currency: 'USDC' } });
    const all = (await recipient.api.listEvents({ query: { limit: '100' } })).events.map((e) => e.id);
    expect(all).toHaveLength(7);

    const seen: string[] = [];
    let args = ['events', '--limit', '3'];
    const pages: number[] = [];
    for (let page = 0; page < 5; page++) {
      const answer = await peerpay(args, recipient.key);
      expect(answer.code, answer.stderr).toBe(0);
      const ids = [...answer.stdout.matchAll(/ (evt_\w+)$/gm)].map((m) => m[1]!);
      seen.push(...ids);
      pages.push(ids.length);
      const more = /^More: peerpay (events .*)$/m.exec(answer.stdout);
      if (!more) break;
      args = more[1]!.split(' ');
    }
    expect(seen).toEqual(all);
    expect(pages).toEqual([3, 3, 1]);
  });
});
