// Unpacks a gzipped tar of a PGlite data directory (what PGlite's dumpDataDir writes: ustar
// records of directories and regular files, names rooted at `/`) into a directory, as PGlite's own
// loadDataDir would, but without starting a PGlite instance for it. An instance's WebAssembly memory
// (about 130 MB) stays resident after it is closed, so unpacking through one cost a first start that
// much for the life of the process (decision 0058). Every file is written and flushed to disk before
// this returns, so that the caller's rename publishes a whole cluster.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const RECORD = 512;
const REGULAR = ['0', '\0'];
const DIRECTORY = '5';

export class TemplateArchiveError extends Error {
  override name = 'TemplateArchiveError';
}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function octal(header: Buffer, offset: number, length: number): number {
  const text = field(header, offset, length).trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new TemplateArchiveError(`a tar header has a bad number: ${JSON.stringify(text)}`);
  return value;
}

/** The checksum as tar defines it: every header byte summed, the checksum field counted as spaces. */
function checksumMatches(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < RECORD; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return octal(header, 148, 8) === sum;
}

/** `name` inside `dir`, refused when it would leave it. */
function destination(dir: string, name: string): string {
  const relative = path.posix.normalize(name.replace(/^\/+/, ''));
  if (relative === '.' || relative === '') return dir;
  if (relative.startsWith('../') || relative === '..' || path.isAbsolute(relative))
    throw new TemplateArchiveError(`a tar entry leaves its directory: ${name}`);
  return path.join(dir, relative);
}

function writeFlushed(file: string, data: Buffer, mtimeSeconds: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (mtimeSeconds > 0) fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
}

/** Unpacks `gzipped` into `dir` (created if missing); answers the number of files written. */
export function untarDataDir(gzipped: Buffer, dir: string): number {
  const tar = zlib.gunzipSync(gzipped);
  fs.mkdirSync(dir, { recursive: true });
  const directories = new Set<string>([dir]);
  let files = 0;
  for (let offset = 0; offset + RECORD <= tar.length;) {
    const header = tar.subarray(offset, offset + RECORD);
    if (header.every((byte) => byte === 0)) break;
    if (!checksumMatches(header)) throw new TemplateArchiveError(`a tar header at byte ${offset} does not match its checksum`);
    const prefix = field(header, 345, 155);
    const name =
      prefix && field(header, 257, 6) === 'ustar' && !prefix.includes('\0') ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156]!);
    const data = tar.subarray(offset + RECORD, offset + RECORD + size);
    if (data.length !== size) throw new TemplateArchiveError(`the tar entry ${name} is cut short`);
    const target = destination(dir, name);
    if (type === DIRECTORY) {
      fs.mkdirSync(target, { recursive: true });
      directories.add(target);
    } else if (REGULAR.includes(type)) {
      writeFlushed(target, data, octal(header, 136, 12));
      directories.add(path.dirname(target));
      files++;
    } else {
      throw new TemplateArchiveError(`the tar entry ${name} is neither a file nor a directory (type ${JSON.stringify(type)})`);
    }
    offset += RECORD + Math.ceil(size / RECORD) * RECORD;
  }
  // The directories' entries too: a file flushed into a directory whose entry is not is not there after a crash.
  for (const directory of directories) {
    const fd = fs.openSync(directory, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
  return files;
}
