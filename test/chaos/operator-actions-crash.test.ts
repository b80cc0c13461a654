// Operators' actions under load and SIGKILLs (DESIGN §17): two peerpay processes on one PostgreSQL
// database take stablecoin transfers while operators freeze and unfreeze the senders, set their
// limits and add and disable operators, each action sent until answered, and one process at a
// time is SIGKILLed at seeded moments and started again. Every action carries its own note.
// Afterwards the audit log holds exactly one entry per action (none lost with a killed request,
// none doubled by one sent again after its answer was lost), no entry of an action never made,
// and the accounts' freezes, limits and the operators are what the last action of each left; the
// ledger's invariants hold.
import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { checkLedgerInvariants } from '../../src/ledger/ledger-queries.js';
import { createPostgresTestDatabase } from '../helpers/test-database.js';
import { startChaosChain } from './support/chaos-chain.js';
import { fundUsdc, registerChaosUser, type ChaosUser } from './support/chaos-accounts.js';
import { peerpayProcess, type PeerpayProcess } from './support/peerpay-process.js';
import { callUntilAnswered, type Answer } from './support/retrying-client.js';
import { processTest, sleep } from './support/process-test.js';
import { recordChaos } from './support/report.js';
import { byProfile, randomFor } from './support/settings.js';

const { settings, cleanups } = processTest();
const OPERATOR_TOKEN = `op_${randomBytes(16).toString('hex')}`;

interface Action {
  method: string;
  path: string;
  body: Record<string, unknown>;
  /** Besides a 2xx, the answer that also means "done" (an operator made before the answer was lost). */
  alsoDone?: (answer: Answer) => boolean;
}

it(`operators' actions are audited exactly once each across SIGKILLs (seed ${settings.seed})`, async () => {
  const random = randomFor('operator-actions-crash');
  const plan = byProfile({
    short: { users: 6, actionsPerOperator: 12, transferClients: 3, transfersPerClient: 10, kills: 3 },
    full: { users: 9, actionsPerOperator: 40, transferClients: 6, transfersPerClient: 30, kills: 8 },
  });
  const database = (await createPostgresTestDatabase())!;
  cleanups.push(() => database.drop());
  const chain = await startChaosChain();
  cleanups.push(() => chain.stop());
  const env = {
    ...chain.env,
    DATABASE_URL: database.url,
    OPERATOR_TOKEN,
    CHAIN_POLL_INTERVAL_MS: '100',
    JOB_INTERVAL_MS: '200',
    RATE_LIMIT_DEFAULT_PER_MINUTE: '1000000',
  };
  const processes: PeerpayProcess[] = [];
  for (let i = 0; i < 2; i++) {
    const p = await peerpayProcess(`ops${i}`, env);
    cleanups.push(() => p.stop());
    processes.push(p);
  }
  await Promise.all(processes.map((p) => p.start()));
  const anyProcess = () => {
    const alive = processes.filter((p) => p.isRunning());
    const from = alive.length > 0 ? alive : processes;
    return from[Math.floor(random() * from.length)]!.baseUrl;
  };

  const users: ChaosUser[] = [];
  for (let i = 0; i < plan.users; i++) users.push(await registerChaosUser(processes[0]!.baseUrl, `ops${i}`));
  await fundUsdc(processes[0]!.baseUrl, chain, users, 100n * 1_000_000n);
  const setup = await openDatabase({ url: database.url, poolSize: 2 });
  const accountIds = new Map<ChaosUser, number>();
  for (const user of users) {
    const row = await setup.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow();
    accountIds.set(user, row.id);
  }

  const violations: string[] = [];
  const notes: string[] = [];
  let answered = 0;
  const noteOf = (kind: string, k: number) => {
    const note = `chaos ${settings.seed} ${kind} ${k}`;
    notes.push(note);
    return note;
  };
  async function act(action: Action): Promise<void> {
    const answer = await callUntilAnswered(anyProcess, {
      method: action.method,
      path: action.path,
      key: OPERATOR_TOKEN,
      body: action.body,
    });
    answered++;
    const done = (answer.status >= 200 && answer.status < 300) || action.alsoDone?.(answer) === true;
    if (!done)
      violations.push(`${action.method} ${action.path} (${String(action.body.note)}): ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  // What the last action of each left, to compare with the database afterwards.
  const frozenScope = new Map<number, string | null>();
  const dayLimit = new Map<number, string>();
  const operators = new Map<string, boolean>();
  const freezers = users.slice(0, plan.users / 2);
  const limited = users.slice(plan.users / 2);

  async function freezer(): Promise<void> {
    for (let k = 0; k < plan.actionsPerOperator; k++) {
      const id = accountIds.get(freezers[k % freezers.length]!)!;
      const scope = frozenScope.get(id) ?? null;
      if (scope === null) {
        const next = random() < 0.5 ? 'all' : 'payouts';
        await act({ method: 'POST', path: `/admin/accounts/${id}/freeze`, body: { scope: next, note: noteOf('freeze', k) } });
        frozenScope.set(id, next);
      } else {
        await act({ method: 'POST', path: `/admin/accounts/${id}/unfreeze`, body: { note: noteOf('unfreeze', k) } });
        frozenScope.set(id, null);
      }
    }
  }
  async function limiter(): Promise<void> {
    for (let k = 0; k < plan.actionsPerOperator; k++) {
      const id = accountIds.get(limited[k % limited.length]!)!;
      const day = String(5_000 + k);
      await act({ method: 'PUT', path: `/admin/accounts/${id}/limits`, body: { currency: 'USDC', day, note: noteOf('limits', k) } });
      dayLimit.set(id, day);
    }
  }
  async function manager(): Promise<void> {
    for (let k = 0; k < plan.actionsPerOperator; k++) {
      const name = `chaos${settings.seed % 100_000}n${k}`;
      const created = await callUntilAnswered(anyProcess, {
        method: 'POST',
        path: '/admin/operators',
        key: OPERATOR_TOKEN,
        body: { name, role: 'viewer', note: noteOf('create', k) },
      });
      answered++;
      // A 409 for the name: the first attempt committed, and its answer was lost with a killed process.
      if (created.status !== 201 && !(created.status === 409 && created.body?.code === 'already_exists'))
        violations.push(`create ${name}: ${created.status} ${JSON.stringify(created.body)}`);
      operators.set(name, false);
      if (k % 2 === 1) continue;
      const row = await setup.db.selectFrom('operators').select('id').where('name', '=', name).executeTakeFirst();
      if (!row) {
        violations.push(`operator ${name} answered but not found`);
        continue;
      }
      await act({ method: 'POST', path: `/admin/operators/${row.id}/disable`, body: { note: noteOf('disable', k) } });
      operators.set(name, true);
    }
  }

  const transferAnswers: number[] = [];
  let busy = true;
  async function transfers(client: number): Promise<void> {
    for (let n = 0; n < plan.transfersPerClient; n++) {
      const sender = users[(client + n) % users.length]!;
      const recipient = users[(client + n + 1) % users.length]!;
      const answer = await callUntilAnswered(anyProcess, {
        method: 'POST',
        path: '/agent/transfer',
        key: sender.key,
        idempotencyKey: `ops-${settings.seed}-${client}-${n}`,
        body: { to: recipient.handle, amount: 0.5, currency: 'USDC' },
      });
      transferAnswers.push(answer.status);
      if (answer.status !== 200 && !(answer.status === 403 && answer.body?.code === 'account_frozen'))
        violations.push(`transfer ${client}-${n}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  }

  const totalActions = plan.actionsPerOperator * 3;
  const killPoints = Array.from({ length: plan.kills }, () => Math.floor(totalActions * (0.1 + random() * 0.8))).sort((a, b) => a - b);
  let kills = 0;
  const killer = (async () => {
    for (const point of killPoints) {
      while (busy && answered < point) await sleep(2);
      const victim = processes[Math.floor(random() * processes.length)]!;
      if (!victim.isRunning()) continue;
      await sleep(Math.floor(random() * 40));
      await victim.kill();
      kills++;
      await sleep(Math.floor(random() * 300));
      await victim.start();
    }
  })();
  const work = Promise.all([
    freezer(),
    limiter(),
    manager(),
    ...Array.from({ length: plan.transferClients }, (_, c) => transfers(c)),
  ]).finally(() => (busy = false));
  await Promise.all([work, killer]);
  for (const p of processes) if (!p.isRunning()) await p.start();

  const { db } = setup;
  const entries = await db
    .selectFrom('audit_log')
    .select(['note', 'action', 'target', 'operator'])
    .where('note', 'like', `chaos ${settings.seed} %`)
    .execute();
  const perNote = new Map<string, number>();
  for (const e of entries) perNote.set(e.note, (perNote.get(e.note) ?? 0) + 1);
  for (const note of notes) if (perNote.get(note) !== 1) violations.push(`${perNote.get(note) ?? 0} audit entries for "${note}"`);
  const made = new Set(notes);
  for (const note of perNote.keys()) if (!made.has(note)) violations.push(`an audit entry for "${note}", an action never made`);
  if (entries.some((e) => e.operator !== 'env')) violations.push('an entry not by env, the only operator that acted');

  const accounts = await db.selectFrom('accounts').select(['id', 'frozen_scope']).execute();
  for (const [id, scope] of frozenScope) {
    const row = accounts.find((a) => a.id === id);
    if ((row?.frozen_scope ?? null) !== scope)
      violations.push(`account ${id} frozen ${row?.frozen_scope} after its last action left ${scope}`);
  }
  const limits = await db
    .selectFrom('account_limit_overrides')
    .select(['account_id', 'day_limit'])
    .where('currency', '=', 'USDC')
    .execute();
  for (const [id, day] of dayLimit) {
    const row = limits.find((l) => l.account_id === id);
    if (row === undefined || BigInt(row.day_limit ?? -1) !== BigInt(day) * 1_000_000n)
      violations.push(`account ${id}: day limit ${row?.day_limit} after its last action set ${day} USDC`);
  }
  const operatorRows = await db.selectFrom('operators').select(['name', 'disabled_at']).execute();
  for (const [name, disabled] of operators) {
    const row = operatorRows.find((o) => o.name === name);
    if (!row) violations.push(`operator ${name} missing`);
    else if ((row.disabled_at !== null) !== disabled)
      violations.push(`operator ${name} disabled ${row.disabled_at !== null}, expected ${disabled}`);
  }
  violations.push(...(await checkLedgerInvariants(db)).map((v) => `ledger: ${JSON.stringify(v)}`));
  await setup.close();

  recordChaos('operator-actions-crash', { operations: notes.length + transferAnswers.length, kills, violations: violations.length });
  console.log(
    `operator-actions-crash (seed ${settings.seed}): ${notes.length} operator actions, ${entries.length} audit entries, ` +
      `${transferAnswers.length} transfers (${transferAnswers.filter((s) => s === 403).length} refused as frozen), ${kills} kills`,
  );
  expect(violations, `seed ${settings.seed}; replay with CHAOS_SEED=${settings.seed}`).toEqual([]);
  expect(entries).toHaveLength(notes.length);
});
