// Console sessions (DESIGN §18, decision 0043), kept on the server by the SHA-256 of their token:
// a session ends when its operator signs out, after 30 minutes without a request, after 12 hours
// in all, and as soon as its operator is disabled. Times are the service clock's (the sandbox
// clock in sandbox mode), so that tests move it rather than wait.
import type { Db } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import { newToken, sha256Hex } from '../platform/ids.js';
import type { ConsoleSecrets } from './console-secrets.js';
import type { ConsoleViewer } from './console-route.js';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

export interface ConsoleSessions {
  /** A new session for the operator: its token, for the cookie only. */
  start(operatorId: string): Promise<string>;
  /** Who the session belongs to, its idle time restarted; null when it is unknown, ended or expired. */
  resume(token: string): Promise<ConsoleViewer | null>;
  end(token: string): Promise<void>;
}

export interface ConsoleSessionsDeps {
  db: Db;
  clock: Clock;
  secrets: ConsoleSecrets;
  limits?: { idleMs: number; absoluteMs: number };
}

export function createConsoleSessions(deps: ConsoleSessionsDeps): ConsoleSessions {
  const { idleMs, absoluteMs } = deps.limits ?? { idleMs: SESSION_IDLE_MS, absoluteMs: SESSION_ABSOLUTE_MS };
  const { db } = deps;
  return {
    async start(operatorId) {
      const token = newToken();
      const now = deps.clock.now();
      await db
        .insertInto('console_sessions')
        .values({ token_hash: sha256Hex(token), operator_id: operatorId, created_at: now, last_seen_at: now })
        .execute();
      return token;
    },
    async resume(token) {
      const hash = sha256Hex(token);
      const row = await db
        .selectFrom('console_sessions as s')
        .innerJoin('operators as o', 'o.id', 's.operator_id')
        .select(['o.id', 'o.name', 'o.role', 'o.disabled_at', 's.created_at', 's.last_seen_at', 's.ended_at'])
        .where('s.token_hash', '=', hash)
        .executeTakeFirst();
      if (!row || row.ended_at !== null) return null;
      const now = deps.clock.now();
      const expired = now.getTime() - row.last_seen_at.getTime() > idleMs || now.getTime() - row.created_at.getTime() > absoluteMs;
      if (expired || row.disabled_at !== null) {
        await db.updateTable('console_sessions').set({ ended_at: now }).where('token_hash', '=', hash).execute();
        return null;
      }
      await db.updateTable('console_sessions').set({ last_seen_at: now }).where('token_hash', '=', hash).execute();
      return { operatorId: row.id, name: row.name, role: row.role, csrfToken: deps.secrets.csrfFor(token) };
    },
    async end(token) {
      await db
        .updateTable('console_sessions')
        .set({ ended_at: deps.clock.now() })
        .where('token_hash', '=', sha256Hex(token))
        .where('ended_at', 'is', null)
        .execute();
    },
  };
}
