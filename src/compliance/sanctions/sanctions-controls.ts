// What peerpay does with a screening answer (DESIGN §17, decision 0037). A withdrawal to a listed
// address, or a listed address saved as the default, is refused with 403 destination_sanctioned,
// and the account is frozen (scope `all`, audit operator `system`). The freeze commits in its own
// transaction BEFORE the refusal is thrown: a refusal thrown from inside the movement's
// transaction would roll the freeze back with it. A quote only refuses: asking the price of a
// withdrawal moves nothing (decision 0037).
import type { Address } from 'viem';
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import { AppError } from '../../platform/errors.js';
import type { Clock } from '../../platform/clock.js';
import { SYSTEM_ACTOR } from '../audit/audit-log.js';
import { freezeAccount } from '../freezes/account-freezes.js';
import type { SanctionsScreening } from './sanctions-screening.js';

/** Where a listed address was met; named in the freeze's note and the refusal. */
export type ScreenedUse = 'withdrawal' | 'withdrawal_address' | 'withdrawal_quote' | 'withdrawal_signing' | 'deposit';

export interface SanctionsControls {
  /**
   * Screens a destination; returns when it is clear. Listed: freezes the account (not for a quote)
   * and throws 403 destination_sanctioned. Throws 503 screening_unavailable when screening cannot
   * answer. `fresh` skips cached answers (the check before signing).
   */
  refuseListedDestination(input: { accountId: number; address: Address; use: ScreenedUse; fresh?: boolean }): Promise<void>;
  /** Freezes the account for a sanctions hit, in the caller's transaction. */
  freezeForSanctions(trx: Trx, input: { accountId: number; address: Address; use: ScreenedUse; at: Date }): Promise<void>;
}

const NOTES: Record<ScreenedUse, string> = {
  withdrawal: 'withdrawal requested to a sanctioned address',
  withdrawal_address: 'a sanctioned address was to be saved as the default withdrawal address',
  withdrawal_quote: 'withdrawal quote for a sanctioned address',
  withdrawal_signing: 'withdrawal destination found sanctioned before signing; the withdrawal failed and nothing was sent',
  deposit: 'deposit received from a sanctioned address; it is blocked until an operator releases it',
};

export function sanctionsNote(use: ScreenedUse, address: Address): string {
  return `sanctions screening: ${NOTES[use]} (${address})`;
}

export function destinationSanctioned(address: Address, frozen: boolean): AppError {
  return new AppError(
    'destination_sanctioned',
    `${address} is on a sanctions list; peerpay does not send to it and nothing was moved.` +
      (frozen ? ' The account is frozen until peerpay support has reviewed it.' : ''),
  );
}

export function createSanctionsControls(deps: { db: Db; screening: SanctionsScreening; clock: Clock }): SanctionsControls {
  const freezeForSanctions: SanctionsControls['freezeForSanctions'] = async (trx, input) => {
    await freezeAccount(trx, {
      accountId: input.accountId,
      scope: 'all',
      by: SYSTEM_ACTOR,
      note: sanctionsNote(input.use, input.address),
      at: input.at,
    });
  };
  return {
    freezeForSanctions,
    async refuseListedDestination(input) {
      const answer = await deps.screening.screen(input.address, { fresh: input.fresh === true });
      if (answer === 'clear') return;
      const freezes = input.use !== 'withdrawal_quote';
      if (freezes) {
        await deps.db.transaction().execute((trx) => freezeForSanctions(trx, { ...input, at: deps.clock.now() }));
      }
      throw destinationSanctioned(input.address, freezes);
    },
  };
}
