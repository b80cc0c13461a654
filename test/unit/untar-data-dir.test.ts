// The first start's template is unpacked without PGlite (decision 0058): the files and directories
// of the archive, with their contents and times, inside the directory only; anything else refused.
// (That the unpacked template is a cluster PGlite opens is pglite-template.test.ts's.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { TemplateArchiveError, untarDataDir } from '../../src/startup/untar-data-dir.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-untar-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Entry {
  name: string;
  type: '0' | '2' | '5';
  data?: string;
  mtime?: number;
}

/** A ustar header as PGlite's dumpDataDir writes one (name, mode, size, time, type, magic, checksum). */
function header(entry: Entry, size: number): Buffer {
  const block = Buffer.alloc(512);
  const put = (text: string, offset: number) => block.write(text, offset, 'latin1');
  const number = (value: number, offset: number, length: number) => put(`${value.toString(8).padStart(length - 1, '0')}\0`, offset);
  put(entry.name, 0);
  number(0o666, 100, 8);
  number(size, 124, 12);
  number(entry.mtime ?? 0, 136, 12);
  put(entry.type, 156);
  put('ustar\u000000', 257);
  put('        ', 148);
  let sum = 0;
  for (const byte of block) sum += byte;
  number(sum, 148, 8);
  return block;
}

function archive(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    parts.push(header(entry, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

describe('untarDataDir', () => {
  it('writes the files and directories of the archive, with their contents and times', () => {
    const dir = path.join(root, 'whole');
    const big = 'x'.repeat(1300);
    const files = untarDataDir(
      archive([
        { name: '/pg_wal', type: '5' },
        { name: '/pg_wal/archive_status', type: '5' },
        { name: '/PG_VERSION', type: '0', data: '17\n', mtime: 1_700_000_000 },
        { name: '/base/1/1259', type: '0', data: big },
        { name: '/global/pg_control', type: '0', data: '' },
      ]),
      dir,
    );
    expect(files).toBe(3);
    expect(fs.readFileSync(path.join(dir, 'PG_VERSION'), 'utf8')).toBe('17\n');
    expect(fs.statSync(path.join(dir, 'PG_VERSION')).mtimeMs).toBe(1_700_000_000_000);
    expect(fs.readFileSync(path.join(dir, 'base', '1', '1259'), 'utf8')).toBe(big);
    expect(fs.statSync(path.join(dir, 'global', 'pg_control')).size).toBe(0);
    expect(fs.statSync(path.join(dir, 'pg_wal', 'archive_status')).isDirectory()).toBe(true);
  });

  it('refuses an entry that would leave the directory, a link, and a damaged header', () => {
    const escaping = path.join(root, 'escaping');
    expect(() => untarDataDir(archive([{ name: '../outside', type: '0', data: 'no' }]), escaping)).toThrow(TemplateArchiveError);
    expect(fs.existsSync(path.join(root, 'outside'))).toBe(false);

    expect(() => untarDataDir(archive([{ name: '/link', type: '2' }]), path.join(root, 'link'))).toThrow(/neither a file nor a directory/);

    const damaged = zlib.gunzipSync(archive([{ name: '/PG_VERSION', type: '0', data: '17\n' }]));
    damaged[0] = 'Q'.charCodeAt(0);
    expect(() => untarDataDir(zlib.gzipSync(damaged), path.join(root, 'damaged'))).toThrow(/checksum/);
  });
});
