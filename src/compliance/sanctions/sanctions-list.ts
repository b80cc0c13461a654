// The operator's sanctions list (SANCTIONS_LIST_FILE): one 0x address per line, `#` starting a
// comment (a whole line or the rest of one), blank lines ignored, letters in any case. Read once
// at start (an unreadable or malformed file refuses the start), then looked at again at most every
// `checkIntervalMs`: when its modification time, size or inode changed it is read again, so an
// operator refreshes the list by replacing the file (write a new one and `mv` it over the old).
//
// A file that disappears, becomes unreadable or has a malformed line is never read as an empty
// list (decision 0037): the last list read stays in force and every look at the file logs an
// error until it is readable again. Screening against fewer addresses because a deploy step lost
// a file would be a silent failure of the control; refusing every withdrawal would stop all users
// for an operator's mistake that the error log names at once.
import fs from 'node:fs';

/** Far beyond the few thousand addresses sanctions lists hold; a bigger file is refused, not read. */
export const MAX_LIST_BYTES = 64 * 1024 * 1024;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export interface SanctionsList {
  /** Whether `address` (any case) is listed, after looking at the file when the interval has passed. */
  has(address: string): Promise<boolean>;
  /** How many addresses the list in force holds. */
  size(): number;
}

export interface SanctionsListLog {
  error(data: object, message: string): void;
  info(data: object, message: string): void;
}

export class SanctionsListError extends Error {
  override name = 'SanctionsListError';
}

interface FileVersion {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** Throws SanctionsListError when the file cannot be read or has a line that is not an address. */
export function createSanctionsList(options: { file: string; checkIntervalMs: number; log: SanctionsListLog }): SanctionsList {
  let version: FileVersion;
  let addresses: Set<string>;
  try {
    version = versionOf(fs.statSync(options.file));
    addresses = readList(options.file);
  } catch (error) {
    if (error instanceof SanctionsListError) throw error;
    throw new SanctionsListError(
      `SANCTIONS_LIST_FILE ${options.file} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let checkedAt = Date.now();
  let checking: Promise<void> | null = null;

  async function check(): Promise<void> {
    try {
      const stat = await fs.promises.stat(options.file);
      const now = versionOf(stat);
      if (now.mtimeMs === version.mtimeMs && now.size === version.size && now.ino === version.ino) return;
      addresses = readList(options.file, await fs.promises.readFile(options.file, 'utf8'), stat.size);
      version = now;
      options.log.info({ file: options.file, addresses: addresses.size }, 'sanctions list reloaded');
    } catch (error) {
      options.log.error(
        { file: options.file, addresses: addresses.size, error: error instanceof Error ? error.message : String(error) },
        'SANCTIONS_LIST_FILE cannot be read; screening keeps the list last read until the file is fixed',
      );
    }
  }

  return {
    async has(address) {
      if (Date.now() - checkedAt >= options.checkIntervalMs) {
        checkedAt = Date.now();
        // Concurrent screenings share one look at the file.
        checking ??= check().finally(() => {
          checking = null;
        });
      }
      if (checking) await checking;
      return addresses.has(address.toLowerCase());
    },
    size: () => addresses.size,
  };
}

function versionOf(stat: fs.Stats): FileVersion {
  return { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
}

function readList(file: string, text?: string, size?: number): Set<string> {
  const bytes = size ?? fs.statSync(file).size;
  if (bytes > MAX_LIST_BYTES) throw new SanctionsListError(`${file} is larger than ${MAX_LIST_BYTES} bytes`);
  return parseSanctionsList(text ?? fs.readFileSync(file, 'utf8'), file);
}

/** The addresses of a list file's text, lower case; throws naming the first line that is not one. */
export function parseSanctionsList(text: string, file: string): Set<string> {
  const out = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const entry = lines[i]!.replace(/#.*$/, '').trim();
    if (entry === '') continue;
    if (!ADDRESS.test(entry)) throw new SanctionsListError(`${file} line ${i + 1} is not a 0x address: "${entry.slice(0, 60)}"`);
    out.add(entry.toLowerCase());
  }
  return out;
}
