// API keys and the password: revoke the calling key, revoke every key, change the password
// (DESIGN §15). A new key is obtained by signing in again (POST /agent/register).
import { callerOf } from '../plugins/auth.js';
import { KeyRevoked, KeysRevoked, PasswordChange, PasswordChanged } from '../schemas/account-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
import type { Accounts } from '../../accounts/accounts.js';

export function keyRoutes(app: App, accounts: Accounts): void {
  app.post(
    '/account/revoke-key',
    operation({
      operationId: 'revokeApiKey',
      tag: 'account',
      summary: 'Revoke the API key used for this call',
      description: 'Wallets and funds are unaffected. Register again with e-mail and password for a new key.',
      auth: 'required',
      readsBody: true,
      responses: { 200: KeyRevoked },
      errors: [],
    }),
    async (request) => {
      await accounts.revokeCallerKey(callerOf(request).apiKeyId);
      return { revoked: true as const };
    },
  );

  app.post(
    '/account/password',
    operation({
      operationId: 'changePassword',
      tag: 'account',
      summary: 'Change the password',
      description:
        'Checks `currentPassword` (a wrong one counts towards the sign-in lock-out: 401 `invalid_credentials`, then 429 `too_many_attempts`) and saves `newPassword` (at least 8 characters). ' +
        'API keys keep working, the calling one and the others, as with Stripe and GitHub: a password change does not revoke keys unless `revokeOtherKeys: true` asks it to (the calling key is never revoked here; use POST /account/revoke-all-keys for that). ' +
        '`revokedKeys` says how many keys were revoked. 503 `busy` with Retry-After when too many password hashes are waiting.',
      auth: 'required',
      readsBody: true,
      body: PasswordChange,
      responses: { 200: PasswordChanged },
      errors: ['invalid_credentials', 'too_many_attempts', 'busy'],
    }),
    async (request) => {
      const caller = callerOf(request);
      const { revokedKeys } = await accounts.changePassword({
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        currentPassword: request.body.currentPassword,
        newPassword: request.body.newPassword,
        revokeOtherKeys: request.body.revokeOtherKeys ?? false,
      });
      return { changed: true as const, revokedKeys };
    },
  );

  app.post(
    '/account/revoke-all-keys',
    operation({
      operationId: 'revokeAllApiKeys',
      tag: 'account',
      summary: 'Revoke every API key of the account, the calling one included',
      description:
        'For a key that may have leaked without knowing which. Wallets and funds are unaffected; sign in again (POST /agent/register with e-mail and password) for a new key. `revoked` says how many keys were revoked.',
      auth: 'required',
      readsBody: true,
      responses: { 200: KeysRevoked },
      errors: [],
    }),
    async (request) => ({ revoked: await accounts.revokeAllKeys(callerOf(request).accountId) }),
  );
}
