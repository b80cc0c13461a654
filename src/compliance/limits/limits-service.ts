// Per-account limits on outgoing volume (DESIGN §17, decision 0036): per account, rail and
// currency or token, over a rolling 24 hours and 30 days. A movement is checked and its volume
// recorded in the transaction that moves the money, after that transaction took the lock that
// serialises the account's movements on the rail (the sender's account row for fiat, the sender's
// ledger account for a token), so that movements racing for the last room never pass it together.
import type { Db } from '../../db/database.js';
import type { Trx } from '../../db/transaction.js';
import type { Asset } from '../../money/assets.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, assert } from '../../platform/errors.js';
import { recordAudit, type Actor } from '../audit/audit-log.js';
import type { LimitSettings } from '../../config/limit-settings.js';
import { LIMITED_ASSETS } from '../../config/limit-settings.js';
import { decimal, effectiveLimits, exceeded, limitExceeded, railOf, type Rail } from './limit-rules.js';
import { coalescedStandings } from './standing-reads.js';
import { BUCKETS_KEPT_MS, WINDOWS, bucketStart, usedIn, type LimitWindow } from './limit-windows.js';
import {
  addVolume,
  addVolumeClause,
  findOverride,
  pruneVolume,
  readStanding,
  saveOverride,
  type AccountStanding,
  type LimitOverride,
  type StandingInput,
  type Volume,
} from './limits-repository.js';

/** A movement to check: `what` names it in the refusal ("transfer", "withdrawal"). */
export interface Movement extends Volume {
  what: string;
}

/** One line of GET /account/limits. */
export interface LimitLine {
  rail: Rail;
  currency: Asset;
  window: LimitWindow;
  limit: string;
  used: string;
  remaining: string;
}

/**
 * The movements of one group-commit batch: each is checked in memory against the volume as the
 * movements staged before it leave it, and the staged volume is written in the ledger's statement.
 */
export interface LimitBatch {
  /** The refusal `movement` would get, or null when it fits; nothing is staged. */
  refusal(movement: Movement): AppError | null;
  /** Counts a movement that `refusal` let through and that the batch writes. */
  stage(movement: Movement): void;
  /** The WITH clause that writes the staged volume, or null when nothing was staged. */
  clause(): ReturnType<typeof addVolumeClause>;
}

/** An operator's override as shown: null where the window has the default. */
export interface OverrideLine {
  currency: Asset;
  day: string | null;
  month: string | null;
  updatedAt: string;
}

export interface OverrideChange {
  accountId: number;
  currency: Asset;
  /** Minor units; null puts the window back to the default; undefined leaves it as it is. */
  day?: bigint | null;
  month?: bigint | null;
  note: string;
}

export interface AccountLimits {
  /** Refuses (429 limit_exceeded) or records the movement; `trx` holds the rail's lock. */
  checkAndRecord(trx: Trx, movement: Movement): Promise<void>;
  /** A group-commit batch's movements; `trx` holds every sender's ledger account. */
  openBatch(trx: Trx, movements: readonly Movement[]): Promise<LimitBatch>;
  /**
   * A batch over a standing its caller read (batchStandingInput) after it took every sender's
   * rail lock; the batch stages into it, so it serves one batch.
   */
  batchOver(standing: Map<number, AccountStanding>): LimitBatch;
  /** A quote: refuses as the movement would now, without recording anything. */
  refuseBeyond(movement: Omit<Movement, 'at'>): Promise<void>;
  /** What may still leave now (a payout takes at most this); `trx` holds the rail's lock. */
  room(trx: Trx, input: { accountId: number; currency: Asset; at: Date }): Promise<bigint>;
  /** Records volume that needs no check (a payout already cut to `room`). */
  record(trx: Trx, volume: Volume): Promise<void>;
  /** The account's effective limits and what it used, every rail and window (404 not_found without the account). */
  lines(accountId: number, from?: Db | Trx): Promise<LimitLine[]>;
  /** What operators set for the account (for the operator's view of it). */
  overrides(accountId: number): Promise<OverrideLine[]>;
  /** An operator's override (audited as account.limits); answers the account's lines after it. */
  setOverride(change: OverrideChange, by: Actor): Promise<LimitLine[]>;
  /** The retention job's round: deletes at most `limit` volume buckets older than the longest window needs. */
  pruneVolume(limit: number): Promise<number>;
}

export interface AccountLimitsDeps {
  db: Db;
  clock: Clock;
  settings: LimitSettings;
}

export function createAccountLimits({ db, clock, settings }: AccountLimitsDeps): AccountLimits {
  const lines = (accountId: number, from: Db | Trx = db) => linesNow(settings, from, accountId, clock.now());
  const standings = coalescedStandings(db);

  return {
    async checkAndRecord(trx, movement) {
      const refusal = refusalIn(settings, await standingOf(trx, movement.accountId, [movement.currency], movement.at), movement);
      if (refusal) throw refusal;
      await addVolume(trx, [movement]);
    },

    openBatch: (trx, movements) => openBatch(settings, trx, movements),
    batchOver: (standing) => batchOver(settings, standing),

    async refuseBeyond(movement) {
      const at = clock.now();
      const standing = await standings({ accountId: movement.accountId, currency: movement.currency, at });
      assert(standing, 'a moving account exists');
      const refusal = refusalIn(settings, standing, { ...movement, at });
      if (refusal) throw refusal;
    },

    async room(trx, input) {
      const standing = await standingOf(trx, input.accountId, [input.currency], input.at);
      return roomIn(settings, standing, input.currency, input.at);
    },

    record: (trx, volume) => addVolume(trx, [volume]),

    lines,

    overrides: (accountId) => readOverrides(db, accountId),

    setOverride: (change, by) => setOverride({ db, clock, settings }, change, by),

    pruneVolume: (limit) => pruneVolume(db, { before: new Date(clock.now().getTime() - BUCKETS_KEPT_MS), limit }),
  };
}

async function standingOf(trx: Db | Trx, accountId: number, currencies: readonly Asset[], at: Date): Promise<AccountStanding> {
  const standing = (await readStanding(trx, { accountIds: [accountId], currencies, from: at })).get(accountId);
  assert(standing, 'a moving account exists');
  return standing;
}

function refusalIn(settings: LimitSettings, standing: AccountStanding, movement: Movement): AppError | null {
  const limits = effectiveLimits(settings, standing, movement.currency, movement.at);
  const over = exceeded(limits, standing.buckets.get(movement.currency) ?? [], movement.amountMinor, movement.at);
  return over ? limitExceeded(movement.currency, movement.what, over) : null;
}

function linesOf(settings: LimitSettings, standing: AccountStanding, at: Date): LimitLine[] {
  return LIMITED_ASSETS.flatMap((currency) => {
    const limits = effectiveLimits(settings, standing, currency, at);
    const buckets = standing.buckets.get(currency) ?? [];
    return WINDOWS.map((window) => {
      const used = usedIn(buckets, window, at);
      const remaining = limits[window] > used ? limits[window] - used : 0n;
      return {
        rail: railOf(currency),
        currency,
        window,
        limit: decimal(limits[window], currency),
        used: decimal(used, currency),
        remaining: decimal(remaining, currency),
      };
    });
  });
}

async function linesNow(settings: LimitSettings, from: Db | Trx, accountId: number, at: Date): Promise<LimitLine[]> {
  const standing = (await readStanding(from, { accountIds: [accountId], currencies: LIMITED_ASSETS, from: at })).get(accountId);
  if (!standing) throw new AppError('not_found', 'No account has that id.');
  return linesOf(settings, standing, at);
}

/** What a batch of `movements` reads (readStanding, or standingQuery inside a caller's statement). */
export function batchStandingInput(movements: readonly Movement[]): StandingInput {
  return {
    accountIds: [...new Set(movements.map((m) => m.accountId))],
    currencies: [...new Set(movements.map((m) => m.currency))],
    // From the earliest movement's windows: a later one's windows count no bucket before them.
    from: new Date(Math.min(...movements.map((m) => m.at.getTime()))),
  };
}

async function openBatch(settings: LimitSettings, trx: Trx, movements: readonly Movement[]): Promise<LimitBatch> {
  return batchOver(settings, await readStanding(trx, batchStandingInput(movements)));
}

function batchOver(settings: LimitSettings, standing: Map<number, AccountStanding>): LimitBatch {
  const staged: Movement[] = [];
  return {
    refusal(movement) {
      const account = standing.get(movement.accountId);
      assert(account, 'a moving account exists');
      return refusalIn(settings, account, movement);
    },
    stage(movement) {
      const account = standing.get(movement.accountId)!;
      const buckets = account.buckets.get(movement.currency) ?? [];
      // In memory as the database will have it: the next member is checked against it.
      buckets.push(
        { span: 'hour', startsAt: bucketStart(movement.at, 'hour'), volume: movement.amountMinor },
        { span: 'day', startsAt: bucketStart(movement.at, 'day'), volume: movement.amountMinor },
      );
      account.buckets.set(movement.currency, buckets);
      staged.push(movement);
    },
    clause: () => addVolumeClause(staged),
  };
}

function roomIn(settings: LimitSettings, standing: AccountStanding, currency: Asset, at: Date): bigint {
  const limits = effectiveLimits(settings, standing, currency, at);
  const buckets = standing.buckets.get(currency) ?? [];
  let room: bigint | null = null;
  for (const window of WINDOWS) {
    const left = limits[window] - usedIn(buckets, window, at);
    room = room === null || left < room ? left : room;
  }
  return room !== null && room > 0n ? room : 0n;
}

async function readOverrides(db: Db, accountId: number): Promise<OverrideLine[]> {
  const rows = await db
    .selectFrom('account_limit_overrides')
    .select(['currency', 'day_limit', 'month_limit', 'updated_at'])
    .where('account_id', '=', accountId)
    .orderBy('currency')
    .execute();
  return rows.map((row) => {
    const currency = row.currency as Asset;
    return {
      currency,
      day: row.day_limit === null ? null : decimal(row.day_limit, currency),
      month: row.month_limit === null ? null : decimal(row.month_limit, currency),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  });
}

async function setOverride({ db, clock, settings }: AccountLimitsDeps, change: OverrideChange, by: Actor): Promise<LimitLine[]> {
  return db.transaction().execute(async (trx) => {
    const at = clock.now();
    // The account's row orders concurrent overrides of one account, so each entry's `before`
    // is what the previous one left.
    const exists = await trx.selectFrom('accounts').select('id').where('id', '=', change.accountId).forNoKeyUpdate().executeTakeFirst();
    if (!exists) throw new AppError('not_found', 'No account has that id.');
    const before: LimitOverride = (await findOverride(trx, change.accountId, change.currency)) ?? { day: null, month: null };
    const after: LimitOverride = {
      day: change.day === undefined ? before.day : change.day,
      month: change.month === undefined ? before.month : change.month,
    };
    // The same values again (a request sent twice, its first answer lost) change and record nothing.
    if (after.day === before.day && after.month === before.month) return linesNow(settings, trx, change.accountId, clock.now());
    await saveOverride(trx, { accountId: change.accountId, currency: change.currency, override: after, at });
    const shown = (o: LimitOverride) => ({
      currency: change.currency,
      day: o.day === null ? null : decimal(o.day, change.currency),
      month: o.month === null ? null : decimal(o.month, change.currency),
    });
    await recordAudit(trx, {
      by,
      action: 'account.limits',
      target: String(change.accountId),
      before: shown(before),
      after: shown(after),
      note: change.note,
      at,
    });
    return linesNow(settings, trx, change.accountId, clock.now());
  });
}
