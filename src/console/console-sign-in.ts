// Signing in to the console (DESIGN §18, decision 0043): name, password and a TOTP code, all three
// right, with the operator enabled and not locked. Every refusal says the same thing, so that it
// tells no one which part was wrong or whether the name exists; 10 failures in a row lock the
// operator for 15 minutes, counted in the database so that every process agrees.
import type { PasswordHasher } from '../accounts/password-hasher.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { ConsoleSecrets } from './console-secrets.js';
import { claimStep, findForSignIn, recordFailure } from './console-credentials-repository.js';
import { acceptedStep } from './totp.js';

export const MAX_SIGN_IN_FAILURES = 10;
export const LOCK_MS = 15 * 60 * 1000;

export const SIGN_IN_REFUSED =
  'Those details were not accepted. Check the name, the password and the code (a code works once); after 10 failures the operator is locked for 15 minutes.';

export interface ConsoleSignIn {
  /** The operator's id when every check passes; null otherwise (the caller shows SIGN_IN_REFUSED). */
  signIn(attempt: { name: string; password: string; code: string }): Promise<string | null>;
}

export interface ConsoleSignInDeps {
  db: Db;
  clock: Clock;
  passwords: PasswordHasher;
  secrets: ConsoleSecrets;
}

export function createConsoleSignIn(deps: ConsoleSignInDeps): ConsoleSignIn {
  const fail = async (id: string) => {
    await recordFailure(deps.db, id, MAX_SIGN_IN_FAILURES, new Date(deps.clock.now().getTime() + LOCK_MS));
    return null;
  };
  return {
    async signIn({ name, password, code }) {
      const row = await findForSignIn(deps.db, name);
      if (!row || row.passwordHash === null || row.totpSecret === null || row.disabledAt !== null) {
        // The same work as a real check, so that the time taken does not tell names apart.
        await deps.passwords.burn(password);
        return null;
      }
      const now = deps.clock.now();
      if (row.lockedUntil !== null && row.lockedUntil > now) {
        await deps.passwords.burn(password);
        return null;
      }
      const passwordOk = await deps.passwords.verify(password, row.passwordHash);
      const secret = deps.secrets.open(row.totpSecret, row.id);
      const step = secret === null ? null : acceptedStep(secret, code.trim(), now);
      if (!passwordOk || step === null) return fail(row.id);
      // A replayed code (its step already used) is a failure like a wrong one.
      if (!(await claimStep(deps.db, row.id, step))) return fail(row.id);
      return row.id;
    },
  };
}
