// The SDK types each refusal's problem by its code (packages/client/src/typed-problems.check.ts is
// the compile-time half); here, at run time: the table it is typed from is the service's, every
// example problem carries only the members its code names, and a real refusal narrows as typed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPeerpayError, PeerpayError, PROBLEM_MEMBERS as SDK_PROBLEM_MEMBERS } from '@peerpay/client';
import { ERROR_CODES, PROBLEM_MEMBERS } from '../../src/platform/errors.js';
import { exampleProblem } from '../../src/http/schemas/problem-examples.js';
import { startClientsServer, type ClientsServer } from './support.js';

let env: ClientsServer;
beforeAll(async () => {
  env = await startClientsServer();
});
afterAll(async () => {
  await env?.close();
});

const COMMON = new Set(['type', 'title', 'status', 'detail', 'code', 'requestId']);

describe('typed problems', () => {
  it('are typed from the service’s own table of members by code', () => {
    expect(SDK_PROBLEM_MEMBERS).toEqual(PROBLEM_MEMBERS);
    for (const code of ERROR_CODES) {
      const members = Object.keys(exampleProblem(code)).filter((name) => !COMMON.has(name));
      const named: Record<string, string> = (PROBLEM_MEMBERS as Record<string, Record<string, string>>)[code] ?? {};
      for (const member of members) expect(Object.keys(named), `${code} example carries ${member}`).toContain(member);
      for (const [member, when] of Object.entries(named))
        if (when === 'always' && code !== 'payment_required') expect(members, `${code} example lacks ${member}`).toContain(member);
    }
  });

  it('a refusal narrows by its code: amount_too_small carries minimum, payment_required its price', async () => {
    const alice = await env.user();
    const bob = await env.user();
    await env.fund(alice, 5_000_000n);
    const refused = await alice.api
      .createAgentTransfer({ body: { to: bob.handle, amount: '0.001', currency: 'USDC' } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PeerpayError);
    expect(isPeerpayError(refused, 'amount_too_small')).toBe(true);
    expect(isPeerpayError(refused, 'card_declined')).toBe(false);
    if (!isPeerpayError(refused, 'amount_too_small')) throw new Error('not amount_too_small');
    expect(refused.problem.minimum).toBe('0.01');

    const unpaid = await alice.api.lookupNanoAccount({ query: { handle: bob.handle } }).catch((e: unknown) => e);
    if (!(unpaid instanceof PeerpayError) || unpaid.code !== 'payment_required') throw new Error(`not payment_required: ${String(unpaid)}`);
    expect(unpaid.problem.price).toBe('0.0001');
    expect(unpaid.problem.accepts[0]?.maxAmountRequired).toBe('100');
  });
});
