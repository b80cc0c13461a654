// The README's configuration table is the schema's (npm run docs:config), and the schema is the
// whole of the configuration: every variable read from the environment is declared in it, and
// nothing outside the configuration reads process.env.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configTable, readmeConfigTable, README_PATH, withConfigTable } from '../../scripts/config-table.js';
import { CONFIG_VARIABLES } from '../../src/config/schema.js';

const root = path.resolve(import.meta.dirname, '../..');
const readme = fs.readFileSync(README_PATH, 'utf8');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && file.endsWith('.ts') ? [path.relative(root, file)] : [];
  });
}

/** A source without its comment lines, which may name process.env or a variable in prose. */
function code(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

const sources = new Map(sourceFiles(path.join(root, 'src')).map((file) => [file, code(fs.readFileSync(path.join(root, file), 'utf8'))]));
const isConfiguration = (file: string) => file === 'src/config.ts' || file.startsWith('src/config/');

/**
 * The upper-case names a source reads as `env.NAME` or `env['NAME']` (process.env included), or
 * from `raw`: the configuration names the environment `raw` as given and `env` once validated.
 */
function envReads(source: string): string[] {
  return [...source.matchAll(/\b(?:env|raw)(?:\.|\[\s*['"`])([A-Z][A-Z0-9_]*)/g)].map((match) => match[1]!);
}

describe("the README's configuration table", () => {
  it('is the one the schema generates (run `npm run docs:config` after changing the schema)', () => {
    expect(readmeConfigTable(readme)).toBe(configTable());
  });

  it('names every variable of the schema once, in its order', () => {
    const named = [...readmeConfigTable(readme).matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
    expect(named).toEqual(CONFIG_VARIABLES);
  });

  it('is rewritten between its markers and nowhere else', () => {
    const rewritten = withConfigTable(readme, '| new |');
    expect(readmeConfigTable(rewritten)).toBe('| new |');
    expect(rewritten.replace('| new |', configTable())).toBe(readme);
  });
});

describe('the schema is the whole configuration', () => {
  it('declares every variable the configuration reads, and each one it declares is read', () => {
    const read = new Set([...sources].filter(([file]) => isConfiguration(file)).flatMap(([, source]) => envReads(source)));
    expect([...read].filter((name) => !CONFIG_VARIABLES.includes(name as never))).toEqual([]);
    expect(CONFIG_VARIABLES.filter((name) => !read.has(name))).toEqual([]);
  });

  it('has no reader of process.env or of a variable outside the configuration', () => {
    const outside = [...sources].filter(([file]) => !isConfiguration(file));
    expect(outside.length).toBeGreaterThan(100);
    expect(outside.filter(([, source]) => /process\.env/.test(source)).map(([file]) => file)).toEqual([]);
    expect(outside.flatMap(([file, source]) => envReads(source).map((name) => `${file}: ${name}`))).toEqual([]);
  });

  it('reads process.env in one place: the default of loadConfig', () => {
    const readers = [...sources].filter(([, source]) => /process\.env/.test(source)).map(([file]) => file);
    expect(readers).toEqual(['src/config/load-config.ts']);
  });
});
