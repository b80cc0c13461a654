// `peerpay operator add | list | disable` (DESIGN §17) against a real service, with PEERPAY_URL and
// an operator token: the bootstrap admin (OPERATOR_TOKEN) makes an operator, whose token is shown
// once; writes need a note; a token that is no operator's is said as such (not "not found"); a
// role too low says so; a disabled operator's token stops working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startClientsServer, type ClientsServer } from './support.js';

const OPERATOR_TOKEN = 'operator-token-for-cli-tests-0123456789abc';

let env: ClientsServer;
beforeAll(async () => {
  env = await startClientsServer({ OPERATOR_TOKEN });
});
afterAll(async () => {
  await env?.close();
});

function operator(args: string[], token: string | undefined) {
  return runCli({ url: env.url, key: '', args: ['operator', ...args], env: token === undefined ? {} : { PEERPAY_OPERATOR_TOKEN: token } });
}

const names = async () =>
  (
    (await env.server.request('GET', '/admin/operators', { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })).body.operators as {
      name: string;
    }[]
  ).map((o) => o.name);

describe('peerpay operator', () => {
  it('adds an operator with the bootstrap token: its token shown once, with the enrolment link; list shows it', async () => {
    const added = await operator(['add', 'ada', '--role', 'support', '--note', 'new support engineer'], OPERATOR_TOKEN);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Operator "ada" \(support\) created: \S+\.$/m);
    expect(added.stdout).toMatch(/shown only this once/);
    expect(added.stdout).toMatch(/^ {2}po_\S+$/m);
    expect(added.stdout).toMatch(/^Console enrolment link \(single use, valid 24 hours\): http\S+$/m);

    // The note is the audit entry's, by the bootstrap admin.
    const id = /created: (\S+)\.$/m.exec(added.stdout)![1]!;
    const audit = await env.server.request('GET', `/admin/audit?target=${id}`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    expect(audit.body.entries).toEqual([
      expect.objectContaining({ action: 'operator.create', operator: 'env', target: id, note: 'new support engineer' }),
    ]);

    const listed = await operator(['list'], OPERATOR_TOKEN);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^NAME +ROLE +STATUS +CREATED +ID$/m);
    expect(listed.stdout).toMatch(/^ada +support +active +\S+ +\S+$/m);
    expect(listed.stdout).not.toMatch(/po_/);

    const json = await runCli({
      url: env.url,
      key: '',
      args: ['--json', 'operator', 'add', 'grace', '--role', 'viewer', '--note', 'auditor'],
      env: { PEERPAY_OPERATOR_TOKEN: OPERATOR_TOKEN },
    });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      operator: { name: 'grace', role: 'viewer', id: expect.any(String), createdAt: expect.any(String) },
      token: expect.stringMatching(/^po_/),
      enrolmentUrl: expect.stringMatching(/^http/),
    });
    expect(json.stderr).toMatch(/shown only this once/);
  });

  it('refuses a write without a note, and without a token, changing nothing', async () => {
    const noNote = await operator(['add', 'nonote', '--role', 'viewer'], OPERATOR_TOKEN);
    expect(noNote.code).toBe(2);
    expect(noNote.stderr).toMatch(/note is required for the audit log: pass --note/);
    const empty = await operator(['add', 'nonote', '--role', 'viewer', '--note', '  '], OPERATOR_TOKEN);
    expect(empty.code).toBe(2);
    const noToken = await operator(['list'], undefined);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/PEERPAY_OPERATOR_TOKEN/);
    const badRole = await operator(['add', 'nonote', '--role', 'root', '--note', 'x'], OPERATOR_TOKEN);
    expect(badRole.code).toBe(2);
    expect(await names()).not.toContain('nonote');
  });

  it('says "not an operator token or wrong URL" for a token that is no operator’s, not "not found"', async () => {
    for (const args of [['list'], ['add', 'eve', '--role', 'admin', '--note', 'x'], ['disable', 'ada', '--note', 'x']]) {
      const refused = await operator(args, 'po_not-a-real-token');
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toMatch(/^Not an operator token or wrong URL: /);
      expect(refused.stderr).not.toMatch(/not_found|No route/);
    }
    const json = await runCli({ url: env.url, key: '', args: ['--json', 'operator', 'list'], env: { PEERPAY_OPERATOR_TOKEN: 'po_nope' } });
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'not_operator' } });
    expect(await names()).not.toContain('eve');
  });

  it('a support operator may list but not add; disabling it stops its token', async () => {
    const added = await runCli({
      url: env.url,
      key: '',
      args: ['--json', 'operator', 'add', 'lin', '--role', 'support', '--note', 'on call'],
      env: { PEERPAY_OPERATOR_TOKEN: OPERATOR_TOKEN },
    });
    const linToken = JSON.parse(added.stdout).token as string;
    expect((await operator(['list'], linToken)).code).toBe(0);
    const tooLow = await operator(['add', 'mallory', '--role', 'admin', '--note', 'x'], linToken);
    expect(tooLow.code).toBe(1);
    expect(tooLow.stderr).toMatch(/^Your operator role cannot do this: /);
    expect(await names()).not.toContain('mallory');

    const unknown = await operator(['disable', 'nobody', '--note', 'x'], OPERATOR_TOKEN);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/No operator is named "nobody"/);
    const disabled = await operator(['disable', 'lin', '--note', 'left the team'], OPERATOR_TOKEN);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toMatch(/^Operator "lin" \(support, \S+\) is disabled: its token no longer works\.$/m);
    expect((await operator(['list'], linToken)).stderr).toMatch(/^Not an operator token or wrong URL/);
    expect((await operator(['list'], OPERATOR_TOKEN)).stdout).toMatch(/^lin +support +disabled/m);
    expect((await operator(['disable', 'lin', '--note', 'again'], OPERATOR_TOKEN)).stderr).toMatch(/disabled already/);
  });
});
