// Registration, keys and profiles. Registering with a new e-mail creates the account, its wallet
// and a key; registering again with the right password issues one more key (DESIGN §6).
import { AppError } from '../platform/errors.js';
import { newHandle } from '../platform/ids.js';
import { issueApiKey } from './api-keys.js';
import * as repo from './accounts-repository.js';
import { ensureAccountWallet } from './account-wallet.js';
import { checkPassword, normalizeEmail, normalizeName, normalizePhone, normalizeWebsite } from './account-rules.js';
import type { PasswordHasher } from './password-hasher.js';
import type { WalletProvider } from '../adapters/wallet/wallet-provider.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export interface RegisterInput {
  email: string;
  password: string;
  name?: string | undefined;
  phone?: string | undefined;
}

export interface Registration {
  isNewAccount: boolean;
  apiKey: string;
  account: repo.AccountRow;
}

type AccountDeps = { db: Db; passwords: PasswordHasher; wallets: WalletProvider; clock: Clock; config: Config };

const HANDLE_ATTEMPTS = 5;

export async function register(deps: AccountDeps, input: RegisterInput): Promise<Registration> {
  // Everything that can be refused from the request alone is refused here, before the e-mail is
  // looked up and before any password hash is queued (DESIGN §15): bad input costs no hashing, and
  // it is refused alike whether or not the e-mail has an account.
  const email = normalizeEmail(input.email);
  checkPassword(input.password);
  const name = input.name === undefined ? undefined : normalizeName(input.name);
  const phone = input.phone === undefined ? null : normalizePhone(input.phone);
  const existing = await repo.findAccountByEmail(deps.db, email);
  if (existing) return withWallet(deps, await signIn(deps, existing, input.password));
  if (name === undefined) {
    // A sign-in (no name) for an e-mail without an account is refused only after one hash's work, as
    // a wrong password for a known e-mail is: the time of the answer must not tell which it was.
    await deps.passwords.burn(input.password);
    throw new AppError('invalid_request', 'name is required to create an account.');
  }
  const passwordHash = await deps.passwords.hash(input.password);
  const created = await createAccount(deps, { email, name, phone, passwordHash });
  if (created) return withWallet(deps, created);
  // Another request created this e-mail's account while we hashed: this one is a sign-in.
  const raced = await repo.findAccountByEmail(deps.db, email);
  if (!raced) throw new Error('account vanished after a conflicting insert');
  return withWallet(deps, await signIn(deps, raced, input.password));
}

/**
 * The registration with the account's wallet. With circle it is made here, after the account's
 * transaction committed; when Circle does not answer the request fails with 503, and registering
 * again (a sign-in) makes the same wallet (account-wallet.ts). The API key of the failed answer is
 * never shown, so it is revoked-in-effect: registering again hands out another.
 */
async function withWallet(deps: AccountDeps, registration: Registration): Promise<Registration> {
  if (registration.account.walletId && registration.account.depositAddress) return registration;
  const wallet = await ensureAccountWallet(deps, registration.account.id);
  return { ...registration, account: { ...registration.account, walletId: wallet.walletId, depositAddress: wallet.address } };
}

async function createAccount(
  deps: AccountDeps,
  input: { email: string; name: string; phone: string | null; passwordHash: string },
): Promise<Registration | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        const id = await repo.insertAccount(trx, { ...input, handle: newHandle() });
        if (id === 0) return null;
        // Self: derived, recorded with the account. Circle: made after the commit (account-wallet.ts).
        if (deps.wallets.provider === 'self') await repo.setWallet(trx, id, deps.wallets.walletFor(id));
        const key = issueApiKey();
        await repo.insertApiKey(trx, id, key);
        const account = await repo.findAccountById(trx, id);
        if (!account) throw new Error('account not readable after insert');
        return { isNewAccount: true, apiKey: key.key, account };
      });
    } catch (error) {
      const pgError = error as { code?: string; constraint?: string; detail?: string };
      if (pgError.code !== '23505') throw error;
      if (/phone/.test(`${pgError.constraint ?? ''}${pgError.detail ?? ''}`)) {
        throw new AppError('already_exists', 'phone is already registered to another account.');
      }
      // A handle collision (1 in 10^12): draw another handle.
      if (attempt >= HANDLE_ATTEMPTS) throw error;
    }
  }
}

async function signIn(
  deps: AccountDeps,
  account: NonNullable<Awaited<ReturnType<typeof repo.findAccountByEmail>>>,
  password: string,
): Promise<Registration> {
  await verifyPasswordCounted(deps, account, password);
  const key = issueApiKey();
  await repo.insertApiKey(deps.db, account.id, key);
  return { isNewAccount: false, apiKey: key.key, account };
}

/**
 * Checks an account's password under the lock-out (DESIGN §15). The attempt is counted first, in one
 * atomic update that also says how many attempts the window holds, so that parallel guesses count:
 * beyond LOGIN_MAX_FAILURES the password is not checked at all (429 too_many_attempts). A right
 * password clears the count; a wrong one stays counted (401 invalid_credentials).
 */
async function verifyPasswordCounted(
  deps: { db: Db; passwords: PasswordHasher; clock: Clock; config: Config },
  account: { id: number; passwordHash: string },
  password: string,
): Promise<void> {
  const { maxFailures, windowMs } = deps.config.loginLockout;
  const now = deps.clock.now();
  const { attempts, since } = await repo.countLoginAttempt(deps.db, account.id, now, windowMs);
  if (attempts > maxFailures) {
    const retryAfterSeconds = Math.max(1, Math.ceil((since.getTime() + windowMs - now.getTime()) / 1000));
    throw new AppError(
      'too_many_attempts',
      'Too many wrong passwords for this account; try again later.',
      {},
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
  if (!(await deps.passwords.verify(password, account.passwordHash))) {
    throw new AppError('invalid_credentials', 'The e-mail and password do not match.');
  }
  await repo.clearLoginFailures(deps.db, account.id);
}

export interface PasswordChange {
  accountId: number;
  /** The key of the call: never revoked by a password change. */
  apiKeyId: number;
  currentPassword: string;
  newPassword: string;
  /** Also revoke every other key of the account. Off by default: a password change leaves keys alone. */
  revokeOtherKeys: boolean;
}

/**
 * POST /account/password. The new password is checked first (no hash spent on one that would be
 * refused), then the current one under the sign-in lock-out, so a stolen key cannot guess it faster
 * than sign-in can. API keys keep working, as Stripe's and GitHub's do when a password changes,
 * unless the caller asks for the others to be revoked.
 */
export async function changePassword(
  deps: { db: Db; passwords: PasswordHasher; clock: Clock; config: Config },
  input: PasswordChange,
): Promise<{ revokedKeys: number }> {
  checkPassword(input.newPassword);
  const stored = await repo.findPasswordHash(deps.db, input.accountId);
  if (stored === undefined) throw new AppError('unauthorized', 'The account of this key no longer exists.');
  await verifyPasswordCounted(deps, { id: input.accountId, passwordHash: stored }, input.currentPassword);
  const passwordHash = await deps.passwords.hash(input.newPassword);
  const revokedKeys = await deps.db.transaction().execute(async (trx) => {
    await repo.setPasswordHash(trx, input.accountId, passwordHash);
    return input.revokeOtherKeys
      ? repo.revokeAccountKeys(trx, { accountId: input.accountId, exceptKeyId: input.apiKeyId, at: deps.clock.now() })
      : 0;
  });
  return { revokedKeys };
}

/** POST /account/revoke-all-keys: every key of the account, the calling one included; answers how many. */
export async function revokeAllKeys(deps: { db: Db; clock: Clock }, accountId: number): Promise<number> {
  return repo.revokeAccountKeys(deps.db, { accountId, exceptKeyId: null, at: deps.clock.now() });
}

export async function revokeCallerKey(deps: { db: Db; clock: Clock }, apiKeyId: number): Promise<void> {
  await repo.revokeKey(deps.db, apiKeyId, deps.clock.now());
}

export type AccountQuery = { email: string } | { handle: string };

/**
 * Finds an account by e-mail or handle; undefined when there is none. The e-mail is read by the
 * registration's rules (400 invalid_email otherwise), so a look-alike is refused, never matched.
 */
export async function findAccount(deps: { db: Db }, query: AccountQuery): Promise<repo.AccountRow | undefined> {
  if ('handle' in query) return repo.findAccountByHandle(deps.db, query.handle.trim().toUpperCase());
  const found = await repo.findAccountByEmail(deps.db, normalizeEmail(query.email));
  return found && (({ passwordHash: _p, failedLogins: _f, failedLoginsSince: _s, ...account }) => account)(found);
}

export interface ProfilePatch {
  name?: string | undefined;
  phone?: string | null | undefined;
  website?: string | null | undefined;
  discoverable?: boolean | undefined;
}

export async function updateProfile(deps: { db: Db }, accountId: number, patch: ProfilePatch): Promise<repo.AccountRow> {
  const changes: Parameters<typeof repo.updateProfile>[2] = {};
  if (patch.name !== undefined) changes.name = normalizeName(patch.name);
  if (patch.phone !== undefined) changes.phone = patch.phone === null ? null : normalizePhone(patch.phone);
  if (patch.website !== undefined) changes.website = patch.website === null ? null : normalizeWebsite(patch.website);
  if (patch.discoverable !== undefined) changes.discoverable = patch.discoverable;
  if (Object.keys(changes).length === 0) throw new AppError('invalid_request', 'Send at least one of name, phone, website, discoverable.');
  try {
    return await repo.updateProfile(deps.db, accountId, changes);
  } catch (error) {
    if ((error as { code?: string }).code === '23505')
      throw new AppError('already_exists', 'phone is already registered to another account.');
    throw error;
  }
}

/** The account's wallet; created here only for an account that has none (account-wallet.ts). */
export async function ensureWallet(deps: { db: Db; wallets: WalletProvider }, accountId: number) {
  return ensureAccountWallet(deps, accountId);
}
