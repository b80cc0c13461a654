// Sanctions screening (DESIGN §17, decision 0037): is this address listed? Two sources, either or
// both configured: the operator's list file (sanctions-list.ts) and an on-chain oracle
// (Chainalysis's on Polygon, the stand-in on the sandbox chain). The list is asked first: it is in
// memory and answers even when the chain does not. Then the oracle, bounded by its timeout; an
// oracle that does not answer makes screening unavailable (503 screening_unavailable with
// Retry-After), never "clear": no money moves on an unanswered question.
//
// Caching: a `clear` answer from the oracle is kept for CLEAR_CACHE_MS, so that a quote, the
// request and its retries do not each cost a chain call. A `listed` answer is never cached (the
// list changes; a listed answer is acted on at once anyway). The check right before a withdrawal
// is signed asks with `fresh`, skipping the cache, so an address listed after the request was
// screened is never paid on the strength of that earlier answer.
import { getAddress, type Address } from 'viem';
import type { SanctionsOracle } from '../../adapters/chain/sanctions-oracle.js';
import { AppError } from '../../platform/errors.js';
import { createSanctionsList, type SanctionsList, type SanctionsListLog } from './sanctions-list.js';

export type ScreeningResult = 'clear' | 'listed';

export interface SanctionsScreening {
  /** Throws AppError screening_unavailable when the oracle does not answer. */
  screen(address: string, options?: { fresh?: boolean }): Promise<ScreeningResult>;
  /** Forgets a cached `clear` answer for `address` (the sandbox helper that edits the stand-in calls it). */
  forget(address: string): void;
  /** The oracle consulted, if any (the sandbox helper edits it only when it is the stand-in). */
  readonly oracleAddress: Address | null;
  /** Where screening's log lines go from now on (the app's logger, once there is one). */
  attachLog(log: SanctionsListLog): void;
}

/** How long a `clear` oracle answer is reused by the checks that may reuse one. */
export const CLEAR_CACHE_MS = 30_000;
/** A bound on the cache: beyond it the oldest answers are forgotten first. */
const MAX_CACHED_ANSWERS = 10_000;
/** How often, at most, the list file is looked at for a change. */
export const LIST_CHECK_INTERVAL_MS = 5_000;
/** What a client is told to wait before asking again when the oracle did not answer. */
const RETRY_AFTER_SECONDS = 30;

export interface SanctionsScreeningOptions {
  /** The on-chain oracle; null when none is configured. */
  oracle: SanctionsOracle | null;
  /** SANCTIONS_LIST_FILE; undefined when none is configured. */
  listFile: string | undefined;
  /** Milliseconds since the epoch (the cache's clock). */
  now: () => number;
  /** Until attachLog: stderr. */
  log?: SanctionsListLog;
  listCheckIntervalMs?: number;
}

const STDERR_LOG: SanctionsListLog = {
  error: (data, message) => console.error(`peerpay: ${message}`, data),
  info: () => {},
};

export function createSanctionsScreening(options: SanctionsScreeningOptions): SanctionsScreening {
  let target = options.log ?? STDERR_LOG;
  // The list logs through this, so that a logger attached later reaches it too.
  const log: SanctionsListLog = {
    error: (data, message) => target.error(data, message),
    info: (data, message) => target.info(data, message),
  };
  const list: SanctionsList | null =
    options.listFile === undefined
      ? null
      : createSanctionsList({ file: options.listFile, checkIntervalMs: options.listCheckIntervalMs ?? LIST_CHECK_INTERVAL_MS, log });
  /** Lower-case address → when its `clear` answer expires. */
  const clearUntil = new Map<string, number>();

  async function askOracle(oracle: SanctionsOracle, key: string, fresh: boolean): Promise<ScreeningResult> {
    const now = options.now();
    const cached = clearUntil.get(key);
    if (!fresh && cached !== undefined && cached > now) return 'clear';
    let listed: boolean;
    try {
      listed = await oracle.isSanctioned(getAddress(key));
    } catch (error) {
      log.error(
        { oracle: oracle.address, error: error instanceof Error ? error.message : String(error) },
        'sanctions oracle did not answer',
      );
      throw new AppError(
        'screening_unavailable',
        'peerpay cannot screen this address against the sanctions list right now; nothing was moved. Try again shortly.',
        {},
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    clearUntil.delete(key);
    if (listed) return 'listed';
    if (clearUntil.size >= MAX_CACHED_ANSWERS) clearUntil.delete(clearUntil.keys().next().value!);
    clearUntil.set(key, options.now() + CLEAR_CACHE_MS);
    return 'clear';
  }

  return {
    oracleAddress: options.oracle?.address ?? null,
    async screen(address, screenOptions = {}) {
      const key = address.toLowerCase();
      if (list && (await list.has(key))) return 'listed';
      if (!options.oracle) return 'clear';
      return askOracle(options.oracle, key, screenOptions.fresh === true);
    },
    forget(address) {
      clearUntil.delete(address.toLowerCase());
    },
    attachLog(next) {
      target = next;
    },
  };
}
