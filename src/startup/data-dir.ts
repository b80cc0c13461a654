// DATA_DIR holds the PGlite database (whose WAL carries e-mails and password hashes), the generated
// master seed and the embedded chain's state: it is private to the user that runs peerpay.
// Directories are 0700 and files 0600. main.ts sets the process umask to 0077 before anything is
// written, so that what PGlite and anvil create is private too; prepareDataDir creates DATA_DIR
// 0700 and tightens what an older start left looser, with a warning.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';

/** Bits of group and others. */
const GROUP_AND_OTHERS = 0o077;
/** Entries looked at when tightening an existing DATA_DIR; a PGlite database has a few thousand. */
const MAX_ENTRIES = 200_000;

/** The umask main.ts sets first: nothing peerpay, PGlite or anvil creates is open to group or others. */
export const PRIVATE_UMASK = 0o077;

/** Whether this configuration keeps anything in DATA_DIR (PGlite, the embedded chain, a generated seed). */
export function usesDataDir(config: Pick<Config, 'databaseUrl' | 'chainRpcUrl' | 'masterSeedHex'>): boolean {
  return config.databaseUrl === undefined || config.chainRpcUrl === undefined || config.masterSeedHex === undefined;
}

export interface PreparedDataDir {
  /** Entries whose mode was tightened (DATA_DIR itself included). */
  tightened: number;
  /** The walk stopped at MAX_ENTRIES; entries beyond were not looked at. */
  truncated: boolean;
}

/**
 * Creates DATA_DIR 0700 (its missing parents too, also 0700), or tightens an existing one and every
 * directory (to 0700) and file (to 0600) under it that group or others could read, write or enter.
 * `warn` is called once when anything was tightened.
 */
export function prepareDataDir(dataDir: string, warn: (message: string) => void): PreparedDataDir {
  const existed = fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!existed) {
    // mkdir's mode is filtered by the umask; this is exact whatever the umask is.
    fs.chmodSync(dataDir, 0o700);
    return { tightened: 0, truncated: false };
  }
  let tightened = 0;
  let seen = 0;
  const stack = [dataDir];
  // A limit on the walk: MAX_ENTRIES entries at most.
  while (stack.length > 0 && seen < MAX_ENTRIES) {
    const entry = stack.pop()!;
    seen++;
    const stat = fs.lstatSync(entry);
    // Symbolic links have no mode of their own on Linux; what they point to is not DATA_DIR's.
    if (stat.isSymbolicLink()) continue;
    if ((stat.mode & GROUP_AND_OTHERS) !== 0) {
      fs.chmodSync(entry, stat.isDirectory() ? 0o700 : stat.mode & 0o700);
      tightened++;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) stack.push(path.join(entry, name));
  }
  const truncated = stack.length > 0;
  if (tightened > 0 || truncated) {
    warn(
      `DATA_DIR ${dataDir} was open to group or others: ${tightened} entries tightened to 0700 (directories) and 0600 (files)` +
        (truncated ? `; only the first ${MAX_ENTRIES} entries were looked at` : ''),
    );
  }
  return { tightened, truncated };
}
