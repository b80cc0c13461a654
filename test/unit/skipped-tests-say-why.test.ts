// Every test that may be skipped says why when it is: its condition goes through runsIf (which
// prints the reason), and no test is skipped unconditionally.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runsIf } from '../helpers/runs-if.js';

const SKIPPABLE = /\b(?:describe|it|test|suite)\s*\.\s*(skipIf|runIf|skip|todo)\s*\(/g;

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `runIf(NAME)` where the file sets `const NAME = runsIf(...)`. */
function namedRunsIf(text: string, after: string): boolean {
  const name = /^([A-Za-z_$][\w$]*)\s*\)/.exec(after)?.[1];
  return name !== undefined && text.includes(`const ${name} = runsIf(`);
}

describe('skipped tests', () => {
  it('give their reason: conditions through runsIf (inline or as a named constant), never skip, skipIf, todo or x-prefixed tests', () => {
    const unexplained: string[] = [];
    for (const file of testFiles('test')) {
      if (path.resolve(file) === path.resolve(import.meta.filename)) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const match of text.matchAll(SKIPPABLE)) {
        const after = text.slice(match.index + match[0].length).trimStart();
        if (match[1] === 'runIf' && (after.startsWith('runsIf(') || namedRunsIf(text, after))) continue;
        unexplained.push(`${file}:${text.slice(0, match.index).split('\n').length}: ${match[0]}`);
      }
      for (const match of text.matchAll(/^\s*x(?:it|describe|test)\s*\(/gm))
        unexplained.push(`${file}:${text.slice(0, match.index).split('\n').length}: ${match[0].trim()}`);
    }
    expect(unexplained).toEqual([]);
  });

  it('print the reason when skipped, and nothing when they run', () => {
    const warned: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      expect(runsIf(undefined, 'needs PostgreSQL (set DATABASE_URL)')).toBe(false);
      expect(runsIf('postgres://x', 'needs PostgreSQL (set DATABASE_URL)')).toBe(true);
    } finally {
      console.warn = warn;
    }
    expect(warned).toEqual([['skipped: needs PostgreSQL (set DATABASE_URL)']]);
  });
});
