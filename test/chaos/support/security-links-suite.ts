// Every kind of link token is single use: viewing never spends it, the first completion does (once,
// also when several completions race), and a second use, an expired token and a tampered token are
// refused with a clear 4xx that moves no money and sets nothing up. The kinds come from the router,
// so a new kind of link fails this file until it is covered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secret, world } from './security-world.js';
import { sql } from 'kysely';
import { registerUser, type TestServer, type TestUser } from '../../helpers/test-server.js';
import { linkPath, moneySnapshot, newLink } from '../../helpers/fiat.js';
import { depositSnapshot, drainDeposits } from '../../helpers/stablecoin-chain.js';
import { onChainBalance } from '../../helpers/withdrawals.js';
import { recordChaos } from './report.js';
import { chaosTally } from './tally.js';
import { byProfile, chaosSettings, randomFor } from './settings.js';
import { routerRoutes } from './security-routes.js';

const settings = chaosSettings();
const seedNote = `(CHAOS_SEED=${settings.seed})`;
const random = randomFor('security-links');
const tally = chaosTally();

let server: TestServer;

interface LinkKind {
  purpose: string;
  lifetimeMs: number;
  make(user: TestUser): Promise<string>;
  /** What completing the link gave the user: compared before and after, it shows the link worked once. */
  effect(user: TestUser): Promise<string>;
}

const FUNDING_AMOUNT = 5;
const instruments = async (user: TestUser) =>
  JSON.stringify(
    (
      await sql`select p.card_ref is not null as card, p.bank_debit_ref is not null as bank, p.payout_ref is not null as payout
               from processor_customers p join accounts a on a.id = p.account_id where a.handle = ${user.handle}`.execute(server.deps.db)
    ).rows,
  );
const setupKind = (
  purpose: string,
  endpoint: '/agent/setup-link' | '/agent/bank-debit-link' | '/agent/connect-link',
  lifetimeMs: number,
): LinkKind => ({
  purpose,
  lifetimeMs,
  make: async (user) => (await newLink(server, user, endpoint)).url,
  effect: instruments,
});
const KINDS: LinkKind[] = [
  setupKind('card-setup', '/agent/setup-link', 24 * 3600_000),
  setupKind('bank-debit-setup', '/agent/bank-debit-link', 24 * 3600_000),
  setupKind('payout-setup', '/agent/connect-link', 10 * 60_000),
  {
    purpose: 'funding',
    lifetimeMs: 30 * 60_000,
    make: async (user) => {
      const answer = await server.request('POST', '/stablecoin/buy-session', {
        key: user.key,
        body: { amount: FUNDING_AMOUNT, currency: 'USDC' },
      });
      if (answer.status !== 200) throw new Error(`buy-session: ${answer.status} ${answer.text}`);
      return answer.body.url;
    },
    // Tokens minted to the user's deposit address and what the ledger credits once the watcher ran.
    effect: async (user) => {
      await drainDeposits(server);
      return JSON.stringify({
        chain: String(await onChainBalance(server, user.depositAddress)),
        booked: (await server.request('GET', '/stablecoin/balance', { key: user.key })).body,
      });
    },
  },
];

const tokenOf = (url: string) => secret('link token', linkPath(url).split('/').pop()!);
const complete = (path: string, outcome = 'succeed') =>
  fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `outcome=${outcome}`,
  });
/** Everything money or setups could change, across all users. */
const everything = async () =>
  `${await moneySnapshot(server)}|${await depositSnapshot(server)}|${JSON.stringify((await sql`select * from processor_customers order by account_id`.execute(server.deps.db)).rows)}`;
const fail = (message: string) => `${message} ${seedNote}`;

/** Single use of every kind of link, on instance A of the including file. It moves A's sandbox clock
 * forward (the expiry check), so the including file runs it after the checks that need today's time. */
export function linkTokensSuite(): void {
  describe('link tokens', () => {
    beforeAll(() => {
      server = world.a;
    });
    afterAll(() => recordChaos('security-links', { operations: tally.operations, violations: tally.violations }));
    it(
      'the router serves exactly the kinds of link this file covers',
      tally.counted(() => {
        const purposes = new Set(
          routerRoutes(server)
            .map((key) => /^\w+ \/links\/([^/]+)\/:token$/.exec(key)?.[1])
            .filter(Boolean),
        );
        expect([...purposes].sort(), fail('kinds of link without single-use checks here')).toEqual(KINDS.map((k) => k.purpose).sort());
        tally.operations++;
      }),
    );

    it.each(KINDS.map((kind) => [kind.purpose, kind] as const))(
      '%s: viewing spends nothing, one of several racing completions wins, every later use is 410 and changes nothing',
      tally.counted(async (_p, kind) => {
        const user = await registerUser(server);
        const path = linkPath(await kind.make(user));
        const before = await kind.effect(user);
        for (const method of ['GET', 'HEAD', 'GET'] as const)
          expect((await fetch(server.url + path, { method })).status, fail(`${method} of an open link`)).toBe(200);
        // An outcome the page does not offer is a 400 and spends nothing.
        expect((await complete(path, 'steal-it')).status, fail('an invalid outcome')).toBe(400);
        const racers = byProfile({ short: 4, full: 8 });
        const answers = await Promise.all(Array.from({ length: racers }, () => complete(path)));
        tally.operations += racers + 4;
        const statuses = answers.map((a) => a.status).sort();
        expect(statuses, fail(`${racers} racing completions`)).toEqual([200, ...Array(racers - 1).fill(410)]);
        const once = await kind.effect(user);
        expect(once, fail('the completion had no effect')).not.toBe(before);
        if (kind.purpose === 'funding')
          expect(JSON.parse(once).chain, fail('funding minted other than once')).toBe(String(BigInt(FUNDING_AMOUNT) * 10n ** 6n));
        const snapshot = await everything();
        for (const outcome of ['succeed', 'cancel', 'succeed'])
          expect((await complete(path, outcome)).status, fail(`a later ${outcome}`)).toBe(410);
        expect((await fetch(server.url + path)).status, fail('viewing a used link')).toBe(410);
        tally.operations += 4;
        expect(await everything(), fail('a used link changed money or setups')).toBe(snapshot);
        expect(await kind.effect(user), fail('a used link changed the user')).toBe(once);
      }),
    );

    it.each(KINDS.map((kind) => [kind.purpose, kind] as const))(
      '%s: a tampered token is 404 (never another link, never a 500) and changes nothing; the real one still works once',
      tally.counted(async (_p, kind) => {
        const user = await registerUser(server);
        const url = await kind.make(user);
        const path = linkPath(url);
        const token = tokenOf(url);
        const prefix = path.slice(0, -token.length);
        const other = tokenOf(await KINDS.find((k) => k.purpose !== kind.purpose)!.make(user));
        const at = Math.floor(random() * token.length);
        const swap = (c: string) => (c === 'A' ? 'B' : 'A');
        const tampered = [
          token.slice(0, at) + swap(token[at]!) + token.slice(at + 1),
          token.slice(0, -1) + swap(token.at(-1)!),
          token.slice(1),
          token.slice(0, -1),
          `${token}A`,
          token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
          other,
          encodeURIComponent(`${token}\n`),
          `${token}%00`,
          `..%2F${token}`,
          `${token.slice(0, 8)}*`,
          '',
        ];
        const before = await everything();
        for (const bad of tampered) {
          for (const method of ['GET', 'POST'] as const) {
            const answer = method === 'GET' ? await fetch(server.url + prefix + bad) : await complete(prefix + bad);
            tally.operations++;
            expect(answer.status, fail(`${method} with a tampered token (${JSON.stringify(bad.slice(0, 12))}…)`)).toBeGreaterThanOrEqual(
              400,
            );
            expect(answer.status, fail(`${method} with a tampered token (${JSON.stringify(bad.slice(0, 12))}…)`)).toBeLessThan(500);
            // A token that could be one (printable, in the path) is not found; control characters may be refused as malformed.
            if (bad !== '' && !/%0A|%00/.test(bad))
              expect(answer.status, fail(`${method} with a tampered token (${JSON.stringify(bad.slice(0, 12))}…)`)).toBe(404);
          }
        }
        expect(await everything(), fail('a tampered token changed money or setups')).toBe(before);
        expect((await complete(path)).status, fail('the real token after the tampered ones')).toBe(200);
        expect((await complete(path)).status, fail('the real token a second time')).toBe(410);
      }),
    );

    it(
      'every kind works until its lifetime is over and is 410 after it, changing nothing',
      tally.counted(async () => {
        // The sandbox clock only moves forward, so this test runs last: each link is made, the clock moved
        // to just before its end (it still opens), then just past it (it is gone).
        const clock = server.deps.sandboxClock!;
        for (const kind of KINDS) {
          const user = await registerUser(server);
          const path = linkPath(await kind.make(user));
          await clock.advance(BigInt(kind.lifetimeMs - 60_000));
          expect((await fetch(server.url + path)).status, fail(`${kind.purpose} a minute before it expires`)).toBe(200);
          await clock.advance(120_000n);
          const effect = await kind.effect(user);
          const before = await everything();
          const answers = [await fetch(server.url + path), await complete(path), await complete(path)];
          tally.operations += answers.length + 1;
          expect(
            answers.map((a) => a.status),
            fail(`${kind.purpose} a minute after it expired`),
          ).toEqual([410, 410, 410]);
          expect(await everything(), fail(`${kind.purpose}: an expired link changed money or setups`)).toBe(before);
          expect(await kind.effect(user), fail(`${kind.purpose}: an expired link changed the user`)).toBe(effect);
        }
      }),
    );
  });
}
