// `peerpay send` and `withdraw` check what they need before asking for a yes: a send the balance
// cannot cover is refused before the question (nothing would be sent anyway); refusals speak the
// user's language: no card yet gives the link to add one, never an API path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareDecimals } from '../../packages/cli/src/main.js';
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

describe('peerpay send and withdraw, before asking', () => {
  it('refuses a stablecoin send or withdrawal the balance cannot cover, before the question, and sends nothing', async () => {
    const sender = await env.user();
    const recipient = await env.user();
    await env.fund(sender, 2_000_000n);
    // No terminal: before the fix this got as far as the question (exit 3, "no terminal to ask").
    const send = await peerpay(['send', recipient.handle, '5', 'USDC'], sender.key);
    expect(send.code).toBe(1);
    expect(send.stderr).toContain('Not enough USDC: you have 2.000000 USDC and this needs 5 USDC. Nothing was sent.');
    expect(send.stderr).not.toMatch(/terminal/);
    const withdraw = await peerpay(['withdraw', '3', 'USDC', '--address', `0x${'12'.repeat(20)}`], sender.key);
    expect(withdraw.code).toBe(1);
    expect(withdraw.stderr).toContain('Not enough USDC');
    expect((await sender.api.getStablecoinBalance()).USDC).toBe('2.000000');
    // Covered: it goes on to the question as before.
    expect((await peerpay(['send', recipient.handle, '1', 'USDC'], sender.key)).code).toBe(3);
  });

  it('says "no card yet" with the link to add one, not an API path', async () => {
    const sender = await env.user();
    const recipient = await env.user();
    const answer = await peerpay(['send', recipient.handle, '10', 'USD', '--yes'], sender.key);
    expect(answer.code).toBe(1);
    expect(answer.stderr).toMatch(/^No card yet: open this link to add one: http:\/\/\S+\/links\/card-setup\/\w+$/m);
    expect(answer.stderr).not.toMatch(/POST |\/agent\//);
  });

  it('refuses a card send without a card before the question, with the link to add one; with a card it asks', async () => {
    const sender = await env.user();
    const recipient = await env.user();
    // No --yes and no terminal: before the check this got as far as the question (exit 3).
    const before = await peerpay(['send', recipient.handle, '10', 'USD'], sender.key);
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(/^No card yet: open this link to add one: http:\/\/\S+\/links\/card-setup\/\w+$/m);
    expect(before.stderr).not.toMatch(/terminal/);
    const ach = await peerpay(['send', recipient.handle, '10', 'USD', '--method', 'ach'], sender.key);
    expect(ach.code).toBe(1);
    expect(ach.stderr).toMatch(/^Bank debit is not set up yet .*open this link to allow it: http:\/\/\S+$/m);
    expect((await sender.api.getAccount()).paymentMethods).toEqual({ card: false, bankDebit: false, payouts: false });
    await env.setUpCard(sender);
    expect((await sender.api.getAccount()).paymentMethods).toEqual({ card: true, bankDebit: false, payouts: false });
    expect((await peerpay(['send', recipient.handle, '10', 'USD'], sender.key)).code).toBe(3);
    expect((await sender.api.listTransfers()).transfers).toEqual([]);
  });

  it('compares amounts exactly', () => {
    expect(compareDecimals('2.000000', '5')).toBe(-1);
    expect(compareDecimals('5.000000', '5')).toBe(0);
    expect(compareDecimals('0.1', '0.09')).toBe(1);
  });
});
