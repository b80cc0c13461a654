// `peerpay limits` and the refusals of DESIGN §17 at the terminal, against a real service: the
// limits as a table and as JSON; a send over a limit, from a frozen account, or a withdrawal to a
// sanctioned address is refused before the question, in the user's terms, and nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsTable } from '../../packages/cli/src/commands/limits.js';
import { accountIdOf } from '../helpers/stablecoin.js';
import { freshAddress } from '../helpers/withdrawals.js';
import { runCli, startClientsServer, type ClientsServer } from './support.js';

const OPERATOR_TOKEN = 'operator-token-for-cli-limit-tests-012345';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };

let env: ClientsServer;
beforeAll(async () => {
  // The default limits (LIMITS_FILE empty), not the test server's generous ones.
  env = await startClientsServer({ OPERATOR_TOKEN, LIMITS_FILE: '' });
});
afterAll(async () => {
  await env?.close();
});

function peerpay(args: string[], key: string) {
  return runCli({ url: env.url, key, args });
}

async function admin(method: string, path: string, body: unknown) {
  const answer = await env.server.request(method, path, { body, headers: operator });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
}

describe('peerpay limits', () => {
  it('shows the caller’s limits as a table, and the API’s answer with --json', async () => {
    const alice = await env.user();
    const text = await peerpay(['limits'], alice.key);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^RAIL +CURRENCY +WINDOW +LIMIT +USED +REMAINING$/m);
    // A new account has a tenth of the defaults: 1,000 USD a day.
    expect(text.stdout).toMatch(/^fiat +USD +24 hours +1000(\.0+)? +0(\.0+)? +1000(\.0+)?$/m);
    expect(text.stdout).toMatch(/^stablecoin +USDC +30 days +5000(\.0+)? +0(\.0+)? +5000(\.0+)?$/m);
    const json = await peerpay(['--json', 'limits'], alice.key);
    const answer = JSON.parse(json.stdout);
    expect(answer).toEqual(await alice.api.getAccountLimits());
    expect(answer.limits).toContainEqual(expect.objectContaining({ rail: 'fiat', currency: 'JPY', window: 'day' }));
  });

  it('lines the amounts up', () => {
    const table = limitsTable([
      { rail: 'fiat', currency: 'USD', window: 'day', limit: '1000.00', used: '5.00', remaining: '995.00' },
      { rail: 'fiat', currency: 'JPY', window: 'month', limit: '750000', used: '0', remaining: '750000' },
    ]);
    expect(table.split('\n').slice(0, 3)).toEqual([
      'RAIL  CURRENCY  WINDOW      LIMIT  USED  REMAINING',
      'fiat  USD       24 hours  1000.00  5.00     995.00',
      'fiat  JPY       30 days    750000     0     750000',
    ]);
  });
});

describe('refusals at the terminal, before the question', () => {
  it('a send over a limit says the limit, the window, what is left and when more can be sent', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 50_000_000n);
    await admin('PUT', `/admin/accounts/${await accountIdOf(env.server, alice)}/limits`, { currency: 'USDC', day: '3', note: 'test' });
    // No terminal and no --yes: were the refusal not first, this would stop at the question (exit 3).
    const alone = await peerpay(['send', bob.handle, '5', 'USDC'], alice.key);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toBe(
      'The limit on sending USDC is 3 USDC in any 24 hours, and 3 USDC of it is left. The amount alone is more than that, so waiting will not help.\n' +
        'Nothing was sent. Send at most 3 USDC now; `peerpay limits` shows all your limits.\n',
    );
    expect((await peerpay(['send', bob.handle, '2', 'USDC', '--yes'], alice.key)).code).toBe(0);
    const refused = await peerpay(['send', bob.handle, '2', 'USDC'], alice.key);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^The limit on sending USDC is 3 USDC in any 24 hours, and 1 USDC of it is left\. More can be sent from \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in about 2[45] hours\)\.$/m,
    );
    expect(refused.stderr).toMatch(
      /^Nothing was sent\. Send at most 1 USDC now, or the rest after that time; `peerpay limits` shows all your limits\.$/m,
    );
    expect(refused.stderr).not.toMatch(/terminal|GET |\/account\//);
    const json = await peerpay(['--json', 'send', bob.handle, '2', 'USDC'], alice.key);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'limit_exceeded', window: 'day', limit: '3', remaining: '1' },
      retryAfterSeconds: expect.any(Number),
    });
    expect((await peerpay(['limits'], alice.key)).stdout).toMatch(/^stablecoin +USDC +24 hours +3 +2 +1$/m);
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('48.000000');
  });

  it('a sanctioned address is refused before the question, and a frozen account is told so; nothing is sent', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 50_000_000n);
    const listed = freshAddress();
    expect(
      (await env.server.request('POST', '/test-helpers/sanctions', { body: { address: listed, sanctioned: true } })).status,
    ).toBeLessThan(300);
    const sanctioned = await peerpay(['withdraw', '5', 'USDC', '--address', listed], alice.key);
    expect(sanctioned.code).toBe(1);
    expect(sanctioned.stderr).toBe(
      'That address is on a sanctions list: peerpay does not send to it. Nothing was sent.\n' +
        'Do not try again to this address: a withdrawal to a listed address freezes your account.\n',
    );

    await admin('POST', `/admin/accounts/${await accountIdOf(env.server, alice)}/freeze`, { note: 'review', scope: 'all' });
    for (const args of [
      ['send', bob.handle, '1', 'USDC'],
      ['withdraw', '5', 'USDC', '--address', freshAddress()],
    ]) {
      const frozen = await peerpay(args, alice.key);
      expect(frozen.code, args.join(' ')).toBe(1);
      expect(frozen.stderr).toMatch(/^Your account is frozen: you can sign in, see your balances and receive money/m);
      expect(frozen.stderr).toMatch(/^Nothing was sent\. Contact peerpay support\.$/m);
    }
    expect((await alice.api.getStablecoinBalance()).USDC).toBe('50.000000');
    expect((await bob.api.getStablecoinBalance()).USDC).toBe('0.000000');
  });
});
