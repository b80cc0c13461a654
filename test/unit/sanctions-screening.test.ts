// Sanctions screening's two sources (decision 0037): the list file (comments, case, reload on
// change, a broken or missing file never read as an empty list) and the oracle (a clear answer
// cached briefly, a fresh check skipping the cache, an oracle that does not answer never "clear").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { createSanctionsScreening } from '../../src/compliance/sanctions/sanctions-screening.js';
import { SanctionsListError, parseSanctionsList } from '../../src/compliance/sanctions/sanctions-list.js';
import type { SanctionsOracle } from '../../src/adapters/chain/sanctions-oracle.js';
import { AppError } from '../../src/platform/errors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-sanctions-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const A = '0x52908400098527886E0F7030069857D2E4169EE7';
const B = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const C = '0xde709f2102306220921060314715629080e2fb77';

function logs() {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    log: {
      error: (_: object, message: string) => void lines.push({ level: 'error', message }),
      info: (_: object, message: string) => void lines.push({ level: 'info', message }),
    },
  };
}

let fileNo = 0;
function listFile(text: string): string {
  const file = path.join(dir, `list-${++fileNo}.txt`);
  fs.writeFileSync(file, text);
  return file;
}

/** Rewrites the file with a later modification time, as an operator's `mv` of a new list would. */
function replace(file: string, text: string, secondsLater: number): void {
  fs.writeFileSync(file, text);
  const at = new Date(Date.now() + secondsLater * 1000);
  fs.utimesSync(file, at, at);
}

function fakeOracle(listed: Set<string>, state = { calls: 0, down: false }): SanctionsOracle & { state: typeof state } {
  return {
    address: '0x4138601B68f4993c7F2B29c69C0F403969013548',
    state,
    async isSanctioned(address: Address) {
      state.calls++;
      if (state.down) throw new Error('connect ECONNREFUSED');
      return listed.has(address.toLowerCase());
    },
  };
}

describe('the sanctions list file', () => {
  it('reads one address a line, skipping comments and blank lines, in any case', async () => {
    const file = listFile(
      `# OFAC SDN, digital currency addresses\n\n${A.toLowerCase()}  # trailing comment\n  ${B.toUpperCase().replace('0X', '0x')}\r\n`,
    );
    const screening = createSanctionsScreening({ oracle: null, listFile: file, now: Date.now, log: logs().log });
    expect(await screening.screen(A)).toBe('listed');
    expect(await screening.screen(B.toLowerCase())).toBe('listed');
    expect(await screening.screen(C)).toBe('clear');
  });

  it('refuses a file with a line that is not an address, naming the line', () => {
    expect(() => parseSanctionsList(`${A}\nnot-an-address\n`, 'list.txt')).toThrow(/line 2 is not a 0x address/);
    const file = listFile(`${A}\n0x1234\n`);
    expect(() => createSanctionsScreening({ oracle: null, listFile: file, now: Date.now, log: logs().log })).toThrow(SanctionsListError);
  });

  it('refuses to start without the file', () => {
    expect(() =>
      createSanctionsScreening({ oracle: null, listFile: path.join(dir, 'missing.txt'), now: Date.now, log: logs().log }),
    ).toThrow(/SANCTIONS_LIST_FILE .* cannot be read/);
  });

  it('is read again when it changes', async () => {
    const file = listFile(`${A}\n`);
    const { log, lines } = logs();
    const screening = createSanctionsScreening({ oracle: null, listFile: file, now: Date.now, log, listCheckIntervalMs: 0 });
    expect(await screening.screen(B)).toBe('clear');
    replace(file, `${A}\n${B}\n`, 5);
    expect(await screening.screen(B)).toBe('listed');
    replace(file, `${B}\n`, 10);
    expect(await screening.screen(A)).toBe('clear');
    expect(lines.filter((l) => l.message === 'sanctions list reloaded')).toHaveLength(2);
  });

  it('looks at the file at most once per interval', async () => {
    const file = listFile(`${A}\n`);
    const screening = createSanctionsScreening({
      oracle: null,
      listFile: file,
      now: Date.now,
      log: logs().log,
      listCheckIntervalMs: 60_000,
    });
    replace(file, `${A}\n${B}\n`, 5);
    expect(await screening.screen(B)).toBe('clear');
  });

  it('keeps the last list, loudly, when the file disappears, becomes unreadable or malformed', async () => {
    const file = listFile(`${A}\n`);
    const { log, lines } = logs();
    const screening = createSanctionsScreening({ oracle: null, listFile: file, now: Date.now, log, listCheckIntervalMs: 0 });
    fs.rmSync(file);
    expect(await screening.screen(A)).toBe('listed');
    expect(lines.at(-1)).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/cannot be read; screening keeps the list last read/),
    });
    fs.writeFileSync(file, `${A}\ngarbage\n`);
    expect(await screening.screen(A)).toBe('listed');
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(2);
    replace(file, `${B}\n`, 5);
    expect(await screening.screen(A)).toBe('clear');
    expect(await screening.screen(B)).toBe('listed');
  });
});

describe('the sanctions oracle', () => {
  it('answers listed from the oracle and from the list alike; the list answers without asking the oracle', async () => {
    const oracle = fakeOracle(new Set([B.toLowerCase()]));
    const screening = createSanctionsScreening({ oracle, listFile: listFile(`${A}\n`), now: Date.now, log: logs().log });
    expect(await screening.screen(A)).toBe('listed');
    expect(oracle.state.calls).toBe(0);
    expect(await screening.screen(B)).toBe('listed');
    expect(await screening.screen(C)).toBe('clear');
    expect(oracle.state.calls).toBe(2);
  });

  it('reuses a clear answer for a short while, but never for a fresh check, and never a listed answer', async () => {
    const listed = new Set<string>();
    const oracle = fakeOracle(listed);
    let now = 1_000_000;
    const screening = createSanctionsScreening({ oracle, listFile: undefined, now: () => now, log: logs().log });
    expect(await screening.screen(C)).toBe('clear');
    listed.add(C.toLowerCase());
    expect(await screening.screen(C)).toBe('clear');
    expect(oracle.state.calls).toBe(1);
    // The check before signing asks again.
    expect(await screening.screen(C, { fresh: true })).toBe('listed');
    expect(await screening.screen(C)).toBe('listed');
    expect(oracle.state.calls).toBe(3);
    listed.delete(C.toLowerCase());
    expect(await screening.screen(C)).toBe('clear');
    listed.add(C.toLowerCase());
    now += 31_000;
    expect(await screening.screen(C)).toBe('listed');
  });

  it('throws 503 screening_unavailable with Retry-After when the oracle does not answer, never clear', async () => {
    const oracle = fakeOracle(new Set());
    const { log, lines } = logs();
    const screening = createSanctionsScreening({ oracle, listFile: undefined, now: Date.now, log });
    expect(await screening.screen(C)).toBe('clear');
    oracle.state.down = true;
    const error = await screening.screen(A).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'screening_unavailable' });
    expect((error as AppError).headers).toMatchObject({ 'Retry-After': '30' });
    await expect(screening.screen(C, { fresh: true })).rejects.toMatchObject({ code: 'screening_unavailable' });
    expect(lines.some((l) => l.level === 'error' && l.message === 'sanctions oracle did not answer')).toBe(true);
  });
});
