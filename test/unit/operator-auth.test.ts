// The one decision on operator credentials (http/plugins/operator-auth.ts) for the bootstrap
// OPERATOR_TOKEN: the configured token, sent as a Bearer token (any case of the scheme), and nothing
// else; nothing at all when unset. None of these is shaped as an operator's `po_` token, so none
// costs a database read (the database here refuses any). Operators' own tokens: test/api/operators.test.ts.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { createOperators } from '../../src/compliance/operators/operators-service.js';
import { createOperatorAuthenticator } from '../../src/http/plugins/operator-auth.js';

const TOKEN = 'operator-token-for-tests-0123456789abcdef';
const noDatabase = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error('no database read expected');
    },
  },
) as Db;
const authenticatorFor = (operatorToken: string | undefined) =>
  createOperatorAuthenticator({
    operators: createOperators({
      db: noDatabase,
      clock: { now: () => new Date() },
      publicUrl: 'http://127.0.0.1:3000',
      bootstrapToken: operatorToken,
    }),
  });

describe('authenticateOperator', () => {
  it('accepts the configured token as a Bearer token, as the bootstrap operator `env`', async () => {
    const authenticate = authenticatorFor(TOKEN);
    expect(await authenticate(`Bearer ${TOKEN}`)).toEqual({ name: 'env', role: 'admin' });
    expect(await authenticate(`bearer ${TOKEN}`)).toEqual({ name: 'env', role: 'admin' });
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['an empty token', 'Bearer '],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, 8)}`],
    ['the token less its last character', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token and more', `Bearer ${TOKEN}0`],
    ['the token in another case', `Bearer ${TOKEN.toUpperCase()}`],
    ['the token twice', `Bearer ${TOKEN} ${TOKEN}`],
    ['the token without a scheme', TOKEN],
    ['another scheme', `Basic ${TOKEN}`],
    ['a user API key', 'Bearer pa_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ'],
    ['an operator token of the wrong length', 'Bearer po_0123456789abcdefghijklmnopqrstuvwxyzABCDEF'],
    ['an operator token with a character outside base62', 'Bearer po_0123456789abcdefghijklmnopqrstuvwxyzABCDE-G'],
  ])('refuses %s', async (_case, header) => {
    expect(await authenticatorFor(TOKEN)(header)).toBeNull();
  });

  it('refuses everything when OPERATOR_TOKEN is unset', async () => {
    const authenticate = authenticatorFor(undefined);
    for (const header of [undefined, '', 'Bearer ', `Bearer ${TOKEN}`, 'Bearer undefined']) expect(await authenticate(header)).toBeNull();
  });
});
