// Console enrolment through the one-time link of POST /admin/operators (DESIGN §17, §18): the page
// shows a TOTP secret (made on the first visit and kept sealed, so that a reload shows the same
// one); the operator sets a password of at least 12 characters and confirms with a first code.
// Only then is the enrolment done and the link spent.
import type { PasswordHasher } from '../accounts/password-hasher.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import { sha256Hex } from '../platform/ids.js';
import type { ConsoleSecrets } from './console-secrets.js';
import { completeEnrolment, lockByEnrolmentHash, setPendingSecret, type EnrolmentRow } from './console-credentials-repository.js';
import { acceptedStep, newTotpSecret } from './totp.js';

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 1024;

export type EnrolmentLink = { state: 'unknown' } | { state: 'expired' } | { state: 'open'; operatorName: string; secret: string };

export type EnrolmentResult =
  EnrolmentLink | { state: 'refused'; operatorName: string; secret: string; reason: string } | { state: 'enrolled' };

export interface ConsoleEnrolment {
  /** The link's state and, while open, the secret to show. */
  open(token: string): Promise<EnrolmentLink>;
  complete(token: string, input: { password: string; code: string }): Promise<EnrolmentResult>;
}

export interface ConsoleEnrolmentDeps {
  db: Db;
  clock: Clock;
  passwords: PasswordHasher;
  secrets: ConsoleSecrets;
}

export function createConsoleEnrolment(deps: ConsoleEnrolmentDeps): ConsoleEnrolment {
  /** The open link's operator and its pending secret (made now if the page was never shown). */
  const openLink = async (trx: Parameters<typeof lockByEnrolmentHash>[0], token: string) => {
    const row = await lockByEnrolmentHash(trx, sha256Hex(token));
    const state = linkState(row, deps.clock.now());
    if (state !== 'open' || !row) return { state } as { state: 'unknown' | 'expired' };
    let secret = row.totpPending === null ? null : deps.secrets.open(row.totpPending, row.id);
    if (secret === null) {
      secret = newTotpSecret();
      await setPendingSecret(trx, row.id, deps.secrets.seal(secret, row.id));
    }
    return { state: 'open' as const, row, secret };
  };
  return {
    async open(token) {
      const link = await deps.db.transaction().execute((trx) => openLink(trx, token));
      return link.state === 'open' ? { state: 'open', operatorName: link.row.name, secret: link.secret } : link;
    },
    async complete(token, input) {
      // Hashed before the transaction: the row is not held locked while scrypt runs.
      const passwordHash = validPassword(input.password) ? await deps.passwords.hash(input.password) : null;
      return deps.db.transaction().execute(async (trx) => {
        const link = await openLink(trx, token);
        if (link.state !== 'open') return link;
        const refused = (reason: string) => ({ state: 'refused' as const, operatorName: link.row.name, secret: link.secret, reason });
        if (passwordHash === null) return refused(`The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long.`);
        const now = deps.clock.now();
        const step = acceptedStep(link.secret, input.code.trim(), now);
        if (step === null) return refused('That code is not the one your authenticator app shows now; enter the current one.');
        const totpSecret = deps.secrets.seal(link.secret, link.row.id);
        await completeEnrolment(trx, link.row.id, { passwordHash, totpSecret, step, at: now });
        return { state: 'enrolled' as const };
      });
    },
  };
}

function validPassword(password: string): boolean {
  return password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH;
}

function linkState(row: EnrolmentRow | null, now: Date): 'unknown' | 'expired' | 'open' {
  if (!row || row.disabledAt !== null) return 'unknown';
  if (row.enrolmentExpiresAt === null || row.enrolmentExpiresAt <= now) return 'expired';
  return 'open';
}
