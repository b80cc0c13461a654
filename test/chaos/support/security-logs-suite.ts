// The logs hold no secret: everything instance A logged at trace level (the including file's
// checks, then a broad flow of this suite's own: registration, failed sign-ins, bad keys, every kind
// of link with card and bank numbers posted to it, fiat and stablecoin transfers, a deposit, a
// withdrawal, x402 payments and their replay, key rotation) is searched for every key, password,
// token, card or bank number, x402 header and signature, the master seed and derived private keys,
// as sent, URL-encoded, JSON-escaped and in pieces.
import { afterAll, describe, expect, it } from 'vitest';
import { secret, world } from './security-world.js';
import { HDKey } from 'viem/accounts';
import { bytesToHex } from 'viem';
import { registerUser } from '../../helpers/test-server.js';
import { issueApiKey } from '../../../src/accounts/api-keys.js';
import { linkPath, newLink, send } from '../../helpers/fiat.js';
import { drainDeposits, faucet, mined } from '../../helpers/stablecoin-chain.js';
import { freshAddress, fundHotWallet, settleWithdrawals } from '../../helpers/withdrawals.js';
import { QUOTE_PRICE, fundedPayer, handMadeV1Header, decodeBase64Json } from '../../helpers/nano.js';
import { recordChaos } from './report.js';
import { chaosTally, seededHex } from './tally.js';
import { chaosSettings, randomFor } from './settings.js';

const settings = chaosSettings();
const seedNote = `(CHAOS_SEED=${settings.seed})`;
const random = randomFor('security-logs');
const tally = chaosTally();
const randomHex = seededHex(random);

/** The logs of everything instance A did in the including file (run last), with a broad flow of its own. */
export function logsSuite(): void {
  afterAll(() => recordChaos('security-logs', { operations: tally.operations, violations: tally.violations }));
  describe('logs', () => {
    it(
      'of a broad flow at trace level carry no key, password, token, card number, signature, seed or private key',
      tally.counted(async () => {
        const server = world.a;
        const masterSeed = world.masterSeed;
        const password = secret('password', `Pw-${randomHex(8)}-secret`);
        const alice = await registerUser(server, { password });
        const bob = await registerUser(server, { password: secret('second password', `Pw-${randomHex(8)}-other`) });
        secret('alice key', alice.key);
        secret('bob key', bob.key);
        // Failed sign-ins: wrong password, unknown e-mail, a body that is not JSON.
        for (let i = 0; i < 3; i++)
          await server.request('POST', '/agent/register', {
            body: { email: alice.email, password: secret('wrong password', `Wrong-${randomHex(6)}`) },
          });
        await server.request('POST', '/agent/register', {
          body: { email: `nobody-${randomHex(4)}@example.com`, password: secret('unknown user password', `Nobody-${randomHex(6)}`) },
        });
        await server.request('POST', '/agent/register', {
          rawBody: `{"email":"${alice.email}","password":"${password}"`,
          headers: { 'content-type': 'application/json' },
        });
        await server.request('POST', '/stablecoin/register', {
          body: { email: alice.email, password, extra: secret('password in an unknown field', `Extra-${randomHex(6)}`) },
        });
        // Bad keys: unknown but well formed, malformed, in the query string, with Basic.
        await server.request('GET', '/account', { key: secret('unknown key', issueApiKey().key) });
        await server.request('GET', '/account', { key: `${alice.key}x` });
        await server.request('GET', `/account?api_key=${encodeURIComponent(alice.key)}`);
        const basic = secret('basic credentials', Buffer.from(`${alice.email}:${password}`).toString('base64'));
        await server.request('GET', '/account', { headers: { authorization: `Basic ${basic}` } });

        // Cards, bank debits and payouts through the sandbox pages, with card data a careless form might post.
        const card = secret('card number', '4242424242424242');
        for (const endpoint of ['/agent/setup-link', '/agent/bank-debit-link', '/agent/connect-link'] as const) {
          for (const user of [alice, bob]) {
            const link = await newLink(server, user, endpoint);
            const token = secret(`${endpoint} token`, linkPath(link.url).split('/').pop()!);
            await fetch(server.url + linkPath(link.url));
            await fetch(`${server.url}${linkPath(link.url)}?token=${token}`);
            const form = new URLSearchParams({
              outcome: 'succeed',
              card_number: card,
              cvc: '737',
              account_number: secret('bank account number', `000123${String(Math.floor(random() * 1e8)).padStart(8, '0')}`),
            });
            await fetch(server.url + linkPath(link.url), {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: form.toString(),
            });
            await fetch(server.url + linkPath(link.url), {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: form.toString(),
            });
          }
        }
        await send(server, alice, { recipientHandle: bob.handle, amount: 7.5, currency: 'USD', paymentMethod: 'instant', note: 'rent' });
        await send(server, alice, { recipientHandle: bob.handle, amount: 2.5, currency: 'USD', paymentMethod: 'ach' });

        // Stablecoins: a deposit, a funding link, a transfer, a withdrawal (sent by the jobs).
        await mined(server, await faucet(server, { address: alice.depositAddress, amount: 50, currency: 'USDC' }));
        const buy = await server.request('POST', '/stablecoin/buy-session', { key: alice.key, body: { amount: 5, currency: 'USDC' } });
        secret('funding token', linkPath(buy.body.url).split('/').pop()!);
        await fetch(server.url + linkPath(buy.body.url));
        await fetch(server.url + linkPath(buy.body.url), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'outcome=succeed',
        });
        await drainDeposits(server);
        await server.request('POST', '/agent/transfer', { key: alice.key, body: { to: bob.handle, amount: 3, currency: 'USDC' } });
        await fundHotWallet(server, 10n ** 12n);
        await server.request('POST', '/stablecoin/withdraw', {
          key: alice.key,
          body: { amount: 4, currency: 'USDC', address: freshAddress() },
        });
        await settleWithdrawals(server);

        // x402: a paid call, its replay, a forged signature, and the same payment as v2.
        const payer = await fundedPayer(server);
        const header = secret('x402 payment header', await handMadeV1Header(server, payer, QUOTE_PRICE));
        secret('x402 signature', decodeBase64Json(header).payload.signature);
        await server.request('GET', '/nano/quote?amount=1&currency=USDC&action=transfer', { headers: { 'x-payment': header } });
        await server.request('GET', '/nano/quote?amount=1&currency=USDC&action=transfer', { headers: { 'x-payment': header } });
        const forged = secret('forged x402 header', await handMadeV1Header(server, payer, QUOTE_PRICE, { value: 1n }));
        await server.request('GET', '/nano/lookup?handle=' + bob.handle, { headers: { 'x-payment': forged } });
        await server.request('GET', '/nano/search?q=x', { headers: { 'payment-signature': header } });
        await server.request('GET', '/nano/quote?amount=1&currency=USDC&action=transfer', {
          key: alice.key,
          headers: { 'x-payment-source': 'balance' },
        });

        // Key rotation: revoke, use the revoked key, sign in again.
        await server.request('POST', '/account/revoke-key', { key: alice.key });
        await server.request('GET', '/stablecoin/balance', { key: alice.key });
        const rotated = await server.request('POST', '/agent/register', { body: { email: alice.email, password } });
        secret('rotated key', rotated.body.apiKey);
        await server.request('GET', '/transfers', { key: rotated.body.apiKey });

        // The seed and every private key derived from it.
        secret('master seed', masterSeed);
        const root = HDKey.fromMasterSeed(Buffer.from(masterSeed, 'hex'));
        for (const path of ["m/44'/60'/1'/0/0", "m/44'/60'/2'/0/0", "m/44'/60'/0'/0/1", "m/44'/60'/0'/0/2"])
          secret(`private key ${path}`, bytesToHex(root.derive(path).privateKey!).slice(2));

        const logs = server.logs.join('');
        expect(server.logs.length, `the flow was logged at trace level ${seedNote}`).toBeGreaterThan(100);
        const found: string[] = [];
        for (const { what, value } of world.secrets) {
          const raw = value.replace(/^0x/, '');
          // The value as sent, URL-encoded and JSON-escaped, and long enough pieces of it (the key's secret
          // part, the middle of a token, the first half of a signature) to be unmistakably it.
          const forms = new Set([raw, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
          if (raw.startsWith('pa_live_')) forms.add(raw.slice('pa_live_'.length));
          if (raw.length >= 24) for (const at of [4, Math.floor(raw.length / 2) - 6, raw.length - 12]) forms.add(raw.slice(at, at + 12));
          for (const form of forms) {
            tally.operations++;
            const at = logs.indexOf(form);
            if (at >= 0)
              found.push(`${what} (as "${form.slice(0, 4)}…") in: ${logs.slice(Math.max(0, at - 200), at).replace(/\s+/g, ' ')}<HERE>`);
          }
        }
        tally.violations += found.length;
        expect(found, `secrets in the logs ${seedNote}`).toEqual([]);
      }),
      120_000,
    );
  });
}
