// GET /events pages by a cursor, the last event id a client saw. Events are written inside the
// transactions that make their changes, and on PostgreSQL those commit in any order: an event
// numbered before another may become visible after it. The list must never move a client's cursor
// past an event that is not visible yet, or that client would never see it. Here a transaction
// writes an event and stays open while a later one writes and commits another: the client that
// pages meanwhile, and again after the first commits, gets both events, in one order, once each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/record-event.js';
import { POSTGRES_ONLY, runsIf } from '../helpers/runs-if.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../helpers/test-server.js';

describe.runIf(runsIf(process.env.DATABASE_URL, `${POSTGRES_ONLY} (PGlite has one connection: its transactions never overlap)`))(
  'events committed out of order',
  () => {
    let server: TestServer;
    let user: TestUser;
    let accountId: number;

    beforeAll(async () => {
      server = await startTestServer();
      user = await registerUser(server);
      const row = await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow();
      accountId = row.id;
    });
    afterAll(() => server.close());

    async function page(after: string | null): Promise<{ ids: string[]; nextCursor: string | null }> {
      const response = await server.request('GET', `/events?limit=50${after ? `&after=${after}` : ''}`, { key: user.key });
      expect(response.status).toBe(200);
      return { ids: response.body.events.map((e: { id: string }) => e.id), nextCursor: response.body.nextCursor };
    }

    const event = (subjectId: string) => ({
      accountId,
      type: 'transfer.received' as const,
      subjectId,
      data: { subjectId },
      now: new Date(),
    });

    it('a client paging while an earlier event is uncommitted still gets it once the writer commits', async () => {
      const { db } = server.deps;
      const seen: string[] = [];
      let cursor: string | null = (await page(null)).nextCursor;
      const before = new Set((await page(null)).ids);

      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstWritten!: () => void;
      const firstHasWritten = new Promise<void>((resolve) => (firstWritten = resolve));
      const first = db.transaction().execute(async (trx) => {
        const id = await recordEvent(trx, event('first'));
        firstWritten();
        await firstHolds;
        return id;
      });
      await firstHasWritten;
      const secondId = await db.transaction().execute((trx) => recordEvent(trx, event('second')));

      // The first transaction is still open: a page now must not step past its event.
      const meanwhile = await page(cursor);
      seen.push(...meanwhile.ids);
      cursor = meanwhile.nextCursor;

      releaseFirst();
      const firstId = await first;
      const after = await page(cursor);
      seen.push(...after.ids);

      expect(seen.filter((id) => !before.has(id)).sort()).toEqual([firstId, secondId].sort());
      expect(new Set(seen).size).toBe(seen.length);
    });
  },
);
