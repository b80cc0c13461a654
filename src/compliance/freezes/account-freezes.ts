// Freezing and unfreezing an account (DESIGN §17): usable inside any transaction, an operator's
// (POST /admin/accounts/{id}/freeze) or an automatic control's (a sanctions hit). Each change
// writes the account's freeze, its audit entry and its event to the account, in the caller's
// transaction, so that all three exist exactly when the change committed. The freeze waits for
// the account's movements in flight and holds back new ones until its commit (decision 0035).
//
// A freeze that changes nothing (the same scope again, or an unfreeze of an account that is not
// frozen) writes nothing: no audit entry, no event, `changed: false`. The audit log records
// changes with their before and after; a control that freezes on every hit (each withdrawal
// attempt to a listed address) would otherwise bury the one entry that matters. A new scope on a
// frozen account is a change: a new freeze, with its own id and event.
import { recordAudit, type Actor } from '../audit/audit-log.js';
import { recordEvent } from '../../events/record-event.js';
import type { Trx } from '../../db/transaction.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { lockFreeze, writeFreeze, type Freeze, type FreezeScope } from './freezes-repository.js';
import { presentFreeze, presentUnfreeze } from './freeze-views.js';

export interface FreezeInput {
  accountId: number;
  scope: FreezeScope;
  by: Actor;
  note: string;
  at: Date;
}

export interface UnfreezeInput {
  accountId: number;
  by: Actor;
  note: string;
  at: Date;
}

/** The account as audit entries name it: its id, as the operator API shows it (`/admin/accounts/{id}`). */
export function accountTarget(accountId: number): string {
  return String(accountId);
}

function auditState(freeze: Freeze | null): { frozen: null | { scope: FreezeScope; since: string; by: string } } {
  return { frozen: freeze === null ? null : { scope: freeze.scope, since: freeze.since.toISOString(), by: freeze.by } };
}

async function lockedFreezeOf(trx: Trx, accountId: number): Promise<Freeze | null> {
  const locked = await lockFreeze(trx, accountId);
  if (!locked) throw new AppError('not_found', `No account ${accountId}.`);
  return locked.freeze;
}

function checkNote(note: string): void {
  if (note.trim() === '') throw new AppError('invalid_request', 'A note is required: say why.');
}

export async function freezeAccount(trx: Trx, input: FreezeInput): Promise<{ changed: boolean }> {
  checkNote(input.note);
  const before = await lockedFreezeOf(trx, input.accountId);
  if (before?.scope === input.scope) return { changed: false };
  const after: Freeze = { id: newId('frz'), scope: input.scope, since: input.at, by: input.by.operator };
  await writeFreeze(trx, input.accountId, after);
  await recordAudit(trx, {
    by: input.by,
    action: 'account.freeze',
    target: accountTarget(input.accountId),
    before: auditState(before),
    after: auditState(after),
    note: input.note,
    at: input.at,
  });
  await recordEvent(trx, {
    accountId: input.accountId,
    type: 'account.frozen',
    subjectId: after.id,
    data: presentFreeze(after),
    now: input.at,
  });
  return { changed: true };
}

export async function unfreezeAccount(trx: Trx, input: UnfreezeInput): Promise<{ changed: boolean }> {
  checkNote(input.note);
  const before = await lockedFreezeOf(trx, input.accountId);
  if (before === null) return { changed: false };
  await writeFreeze(trx, input.accountId, null);
  await recordAudit(trx, {
    by: input.by,
    action: 'account.unfreeze',
    target: accountTarget(input.accountId),
    before: auditState(before),
    after: auditState(null),
    note: input.note,
    at: input.at,
  });
  await recordEvent(trx, {
    accountId: input.accountId,
    type: 'account.unfrozen',
    subjectId: before.id,
    data: presentUnfreeze(before, input.at),
    now: input.at,
  });
  return { changed: true };
}
