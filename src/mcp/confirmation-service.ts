// The MCP confirmations of the service: the ConfirmationStore of @peerpay/mcp over the database,
// on the service's clock (the sandbox clock can move past an expiry). Owners are account ids.
// The confirmations module alone: the package's index would load the MCP SDK, which the service
// loads only on the first request to /mcp (mcp-modules.ts).
import {
  CONFIRMATION_TTL_MS,
  hashConfirmationId,
  newConfirmationId,
  type ClaimResult,
  type ConfirmationStore,
} from '@peerpay/mcp/confirmations';
import {
  claimConfirmation,
  deleteExpiredConfirmations,
  findConfirmation,
  insertConfirmation,
  releaseConfirmation,
} from './confirmations-repository.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';

export type ConfirmationDeps = { db: Db; clock: Clock };

function accountIdOf(owner: string): number {
  const id = Number(owner);
  if (!Number.isSafeInteger(id) || id <= 0) throw new RangeError('a confirmation owner is an account id');
  return id;
}

export function databaseConfirmationStore(deps: ConfirmationDeps): ConfirmationStore {
  return {
    async create({ owner, termsHash }) {
      const now = deps.clock.now();
      const id = newConfirmationId();
      const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS);
      // Expired ones are kept a day (a late second call is told "expired", not "not found"), then removed.
      await deleteExpiredConfirmations(deps.db, new Date(now.getTime() - 24 * 3600_000), 100);
      await insertConfirmation(deps.db, {
        idHash: hashConfirmationId(id),
        accountId: accountIdOf(owner),
        termsHash,
        createdAt: now,
        expiresAt,
      });
      return { id, expiresAt };
    },
    async claim({ id, owner, termsHash }): Promise<ClaimResult> {
      const idHash = hashConfirmationId(id);
      const accountId = accountIdOf(owner);
      const now = deps.clock.now();
      if (await claimConfirmation(deps.db, { idHash, accountId, termsHash, now })) return 'claimed';
      const found = await findConfirmation(deps.db, idHash, accountId);
      if (!found) return 'not_found';
      if (found.usedAt !== null) return 'used';
      if (found.expiresAt.getTime() <= now.getTime()) return 'expired';
      return 'terms_changed';
    },
    async release({ id, owner }) {
      await releaseConfirmation(deps.db, hashConfirmationId(id), accountIdOf(owner));
    },
  };
}
