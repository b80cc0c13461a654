// `peerpay events --after` pages through more events than one page holds, by following the "More"
// line it prints: each page starts right after the previous one, keeps its size, none is skipped
// or repeated, and the last page offers no more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startClientsServer, type ClientsServer } from './support.js';

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
