// The list of files CI's PostgreSQL pass leaves to the PGlite pass names files that exist: a file
// renamed or moved must not silently start running twice, nor an entry linger naming nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_INDEPENDENT_FILES } from '../database-independent-files.js';

const root = path.resolve(import.meta.dirname, '../..');
const testFiles = (fs.readdirSync(path.join(root, 'test'), { recursive: true }) as string[])
  .map((file) => `test/${file.split(path.sep).join('/')}`)
  .filter((file) => file.endsWith('.test.ts'));

/** vitest's glob, as far as the list uses it: `**` for any path, `*` within one name. */
function matcher(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\*\*/g, '\0').replace(/\*/g, '[^/]*').replace(/\0/g, '.*')}$`);
}

describe('the database-independent test files', () => {
  it.each(DATABASE_INDEPENDENT_FILES)('%s names at least one test file', (pattern) => {
    expect(testFiles.filter((file) => matcher(pattern).test(file)).length).toBeGreaterThan(0);
  });
});
