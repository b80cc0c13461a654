// The one decision on operator credentials (http/plugins/operator-auth.ts): the configured token,
// sent as a Bearer token (any case of the scheme), and nothing else; nothing at all when unset.
import { describe, expect, it } from 'vitest';
import { createOperatorAuthenticator } from '../../src/http/plugins/operator-auth.js';

const TOKEN = 'operator-token-for-tests-0123456789abcdef';
const authenticatorFor = (operatorToken: string | undefined) => createOperatorAuthenticator({ config: { treasury: { operatorToken } } });

describe('authenticateOperator', () => {
  it('accepts the configured token as a Bearer token, as the bootstrap operator `env`', async () => {
    const authenticate = authenticatorFor(TOKEN);
    expect(await authenticate(`Bearer ${TOKEN}`)).toEqual({ name: 'env' });
    expect(await authenticate(`bearer ${TOKEN}`)).toEqual({ name: 'env' });
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
  ])('refuses %s', async (_case, header) => {
    expect(await authenticatorFor(TOKEN)(header)).toBeNull();
  });

  it('refuses everything when OPERATOR_TOKEN is unset', async () => {
    const authenticate = authenticatorFor(undefined);
    for (const header of [undefined, '', 'Bearer ', `Bearer ${TOKEN}`, 'Bearer undefined']) expect(await authenticate(header)).toBeNull();
  });
});
