// The accounts service (DESIGN §6, §21): registration, keys, passwords and profiles, built once by
// the composition root over exactly what they use.
import * as service from './accounts-service.js';
import type { AccountRow } from './accounts-repository.js';
import type { PasswordHasher } from './password-hasher.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface AccountsDeps {
  db: Db;
  clock: Clock;
  config: Config;
  passwords: PasswordHasher;
  wallets: WalletProvider;
}

export interface Accounts {
  register(input: service.RegisterInput): Promise<service.Registration>;
  changePassword(input: service.PasswordChange): Promise<{ revokedKeys: number }>;
  revokeAllKeys(accountId: number): Promise<number>;
  revokeCallerKey(apiKeyId: number): Promise<void>;
  find(query: service.AccountQuery): Promise<AccountRow | undefined>;
  updateProfile(accountId: number, patch: service.ProfilePatch): Promise<AccountRow>;
  ensureWallet(accountId: number): ReturnType<typeof service.ensureWallet>;
}

export function createAccounts(deps: AccountsDeps): Accounts {
  return {
    register: (input) => service.register(deps, input),
    changePassword: (input) => service.changePassword(deps, input),
    revokeAllKeys: (accountId) => service.revokeAllKeys(deps, accountId),
    revokeCallerKey: (apiKeyId) => service.revokeCallerKey(deps, apiKeyId),
    find: (query) => service.findAccount(deps, query),
    updateProfile: (accountId, patch) => service.updateProfile(deps, accountId, patch),
    ensureWallet: (accountId) => service.ensureWallet(deps, accountId),
  };
}
