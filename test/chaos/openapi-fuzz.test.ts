// Hostile input, from the OpenAPI document: for every operation peerpay publishes (HEAD too, and
// the link pages and routes it serves beside the document), generated valid and invalid requests.
// Never a 5xx; every 4xx a problem document (link pages answer browsers with pages); every refused
// request leaves money untouched and writes nothing (a declined payment may record its attempt);
// the ledger invariants hold and the process stays healthy. Runs on PGlite, or on PostgreSQL when
// DATABASE_URL is set.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { casesFor, type FuzzCase, type Operation } from './support/openapi-fuzz/cases.js';
import { buildFuzzWorld, type FuzzWorld } from './support/openapi-fuzz/fuzz-world.js';
import { documentedOperations, undocumentedOperations } from './support/openapi-fuzz/operations.js';
import { ledgerDigest } from './support/openapi-fuzz/ledger-digest.js';
import { answerViolations, codeOf, describeCase, type Violation } from './support/openapi-fuzz/answer-checks.js';
import { rawRequest, type RawAnswer } from './support/openapi-fuzz/raw-http.js';
import { documentBodyCheck, type BodyCheck } from './support/openapi-fuzz/document-schemas.js';
import { recordChaos } from './support/report.js';
import { byProfile, chaosSettings } from './support/settings.js';

const settings = chaosSettings();
let server: TestServer;
let world: FuzzWorld;

beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_REGISTER_PER_MINUTE: '1000000',
    RATE_LIMIT_CHECK_PER_MINUTE: '1000000',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
    LOGIN_MAX_FAILURES: '1000',
    LOG_LEVEL: 'warn',
    // Registering (and logging in again after a revoked key) is a case like any other: the
    // cheapest password hash the service allows keeps it from eating the time budget.
    PASSWORD_HASH_COST_LOG2: '10',
  });
  world = await buildFuzzWorld(server);
}, 180_000);
afterAll(async () => {
  await server?.close();
});

async function resolved(c: FuzzCase): Promise<FuzzCase> {
  const headers: FuzzCase['headers'] = {};
  for (const [name, value] of Object.entries(c.headers)) {
    headers[name] = Array.isArray(value)
      ? await Promise.all(value.map((v) => world.resolve(v, c.path)))
      : await world.resolve(value, c.path);
  }
  const body = c.body === undefined ? undefined : await world.resolve(c.body, c.path);
  return { ...c, path: await world.resolve(c.path, c.path), headers, ...(body === undefined ? {} : { body }) };
}

/** Refusals that record the attempt they refused: a declined card, an x402 payment that failed. */
const RECORDING_REFUSALS = new Set(['card_declined', 'payment_required']);

it(`every operation of /openapi.json survives generated hostile input (seed ${settings.seed}, profile ${settings.profile})`, async () => {
  const doc = (await server.request('GET', '/openapi.json')).body;
  const documented = documentedOperations(doc);
  const operations: Operation[] = [...documented, ...undocumentedOperations(documented, world.hints, world.users.length)];
  expect(documented.length).toBeGreaterThan(30);

  const numRuns = byProfile({ short: 1500, full: 6000 });
  const bodyLimit = server.deps.config.bodyLimitBytes;
  const started = Date.now();
  let cases = 0;
  const byStatus = new Map<number, number>();
  const successes = new Map<string, number>();
  /** What valid cases of each operation were answered, to show why one never reached a 2xx. */
  const validAnswers = new Map<string, Map<string, number>>();
  const violations: Violation[] = [];
  const timeByOperation = new Map<string, number>();
  const violate = (signature: string, message: string) => {
    violations.push({ signature, message });
  };

  const bodyChecks = new Map<Operation, BodyCheck | null>(operations.map((op) => [op, documentBodyCheck(op)]));
  const arbitrary = fc.oneof(...operations.map((op) => casesFor(op, world.users.length, world.hints, bodyLimit).map((c) => ({ c, op }))));
  await fc.assert(
    fc.asyncProperty(arbitrary, async ({ c: generated, op }) => {
      cases++;
      const caseStarted = Date.now();
      const c = await resolved(generated);
      const where = `${op.method} ${op.path}`;
      const before = await ledgerDigest(server.deps.db);
      const sent = await Promise.allSettled(
        Array.from({ length: c.copies }, () =>
          rawRequest(server.url, { method: c.method, target: c.query ? `${c.path}?${c.query}` : c.path, headers: c.headers, body: c.body }),
        ),
      );
      const answers: RawAnswer[] = [];
      for (const outcome of sent) {
        if (outcome.status === 'fulfilled') answers.push(outcome.value);
        else violate(`${where} no answer ${c.kind}`, `no HTTP answer (${(outcome.reason as Error).message}) for ${describeCase(c)}`);
      }
      for (const answer of answers) {
        byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
        if (c.kind === 'valid') {
          const seen = validAnswers.get(where) ?? new Map<string, number>();
          const label = `${answer.status}${answer.status >= 400 ? ` ${codeOf(answer)}` : ''}`;
          validAnswers.set(where, seen.set(label, (seen.get(label) ?? 0) + 1));
        }
        if (answer.status >= 200 && answer.status < 300 && c.method === op.method) successes.set(where, (successes.get(where) ?? 0) + 1);
        for (const v of answerViolations(answer, c, op, bodyChecks.get(op) ?? null)) violate(v.signature, v.message);
      }
      // Only when every copy was refused can nothing have changed (a burst may mix a 2xx and 4xxs).
      if (answers.length === c.copies && answers.every((a) => a.status >= 400 && a.status < 500)) {
        const after = await ledgerDigest(server.deps.db);
        const statuses = answers.map((a) => `${a.status} ${codeOf(a)}`).join(', ');
        if (after.money !== before.money) {
          violate(
            `${where} moved money`,
            `a refused request (${statuses}) moved money: ${describeCase(c)}\n  before ${before.money}\n  after  ${after.money}`,
          );
        } else if (after.records !== before.records && !answers.some((a) => RECORDING_REFUSALS.has(codeOf(a) ?? ''))) {
          violate(
            `${where} wrote`,
            `a refused request (${statuses}) wrote something: ${describeCase(c)}\n  before ${before.records}\n  after  ${after.records}`,
          );
        }
      }
      // A revoked key is the fuzzer's own doing: register again for a fresh one, as a user would.
      if (/^\/account\/(revoke-key|revoke-all-keys|password)/.test(c.path) && answers.some((a) => a.status === 200))
        await world.renewRevokedKeys();
      timeByOperation.set(`${op.method} ${op.path}`, (timeByOperation.get(`${op.method} ${op.path}`) ?? 0) + Date.now() - caseStarted);
      if (cases % 250 === 0 && (await server.request('GET', '/health')).status !== 200)
        violate('health', `GET /health is not 200 after ${cases} cases`);
    }),
    { seed: settings.seed, numRuns, endOnFailure: true },
  );

  const invariants = await checkLedgerInvariants(server.deps.db);
  if (invariants.length) violate('ledger invariants', `ledger invariants broken: ${JSON.stringify(invariants)}`);
  if ((await server.request('GET', '/health')).status !== 200) violate('health', 'GET /health is not 200 at the end');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const distinct = new Map(violations.map((v) => [v.signature, v.message]));
  recordChaos('openapi-fuzz', { fuzzCases: cases, violations: violations.length });
  const reached = documented.filter((op) => successes.has(`${op.method} ${op.path}`)).length;
  console.log(
    `openapi-fuzz (seed ${settings.seed}): ${cases} cases over ${operations.length} operations in ${seconds} s; ` +
      `${reached}/${documented.length} documented operations answered 2xx at least once; answers ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}`,
  );
  const unreached = documented.filter((op) => !successes.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`);
  if (process.env.FUZZ_VERBOSE)
    console.log(
      `openapi-fuzz: slowest operations (ms in all): ${JSON.stringify([...timeByOperation].sort((a, b) => b[1] - a[1]).slice(0, 10))}`,
    );
  if (process.env.FUZZ_VERBOSE)
    for (const [op, seen] of validAnswers) console.log(`openapi-fuzz: valid ${op}: ${JSON.stringify(Object.fromEntries(seen))}`);
  for (const op of unreached)
    console.log(`openapi-fuzz: never a 2xx: ${op}; valid cases answered ${JSON.stringify(Object.fromEntries(validAnswers.get(op) ?? []))}`);
  if (distinct.size) {
    throw new Error(
      `${violations.length} violations (${distinct.size} distinct) with CHAOS_SEED=${settings.seed} CHAOS_PROFILE=${settings.profile}:\n\n` +
        [...distinct.values()].slice(0, 40).join('\n\n'),
    );
  }
});
