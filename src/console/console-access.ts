// The console's sign-in, enrolment and sessions, built once by the composition root. The master
// seed goes no further than the keys derived from it here (decision 0043).
import type { PasswordHasher } from '../accounts/password-hasher.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { ConsoleAccess } from './console-access-routes.js';
import { createConsoleEnrolment } from './console-enrolment.js';
import { createConsoleSecrets } from './console-secrets.js';
import { createConsoleSessions } from './console-sessions.js';
import { createConsoleSignIn } from './console-sign-in.js';

export function createConsoleAccess(deps: { db: Db; clock: Clock; passwords: PasswordHasher; masterSeed: Uint8Array }): ConsoleAccess {
  const secrets = createConsoleSecrets(deps.masterSeed);
  const { db, clock, passwords } = deps;
  return {
    sessions: createConsoleSessions({ db, clock, secrets }),
    signIn: createConsoleSignIn({ db, clock, passwords, secrets }),
    enrolment: createConsoleEnrolment({ db, clock, passwords, secrets }),
  };
}
