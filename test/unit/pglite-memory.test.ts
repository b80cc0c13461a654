// PGlite opens with peerpay's memory settings (decision 0054), not the cluster's 128 MB of
// shared buffers: the setting is what a running PGlite reports.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';

describe('PGlite memory settings', () => {
  it('opens with 32 MB of shared buffers', async () => {
    const database = await openDatabase({});
    try {
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
      expect(rows[0]!.shared_buffers).toBe('32MB');
    } finally {
      await database.close();
    }
  });
});
