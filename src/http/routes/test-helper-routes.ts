// Sandbox-only helpers (DESIGN §7). app.ts registers this module only in sandbox mode, so in live
// mode these paths do not exist (404).
import { Type } from 'typebox';
import { runJobsOnce, type JobRunner } from '../../jobs/job-runner.js';
import { assert } from '../../platform/errors.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
import type { SandboxClock } from '../../platform/clock.js';

/** What these routes use: the clock they move, and the jobs they run after moving it. */
export type TestHelperRoutesDeps = { runner: JobRunner; sandboxClock: SandboxClock | null };

const DAY_MS = 24n * 3600n * 1000n;

export async function testHelperRoutes(app: App, deps: TestHelperRoutesDeps): Promise<void> {
  const clock = deps.sandboxClock;
  assert(clock, 'test helpers exist only with the sandbox clock');

  app.post(
    '/test-helpers/clock/advance',
    operation({
      operationId: 'advanceSandboxClock',
      tag: 'sandbox',
      summary: 'Move the sandbox clock forward (sandbox mode only)',
      description:
        'Moves the service clock forward by whole days, then runs the background jobs at once, so that ACH transfers due by the new time have settled (or been returned) and payouts have been made when this answers. The clock never moves back.',
      auth: 'public',
      readsBody: true,
      body: Type.Object(
        { days: Type.Integer({ minimum: 1, maximum: 3650, description: 'Whole days, 1 to 3650' }) },
        { additionalProperties: false, examples: [{ days: 3 }] },
      ),
      responses: {
        200: Type.Object(
          { now: Type.String({ format: 'date-time', description: 'The service clock after the move' }) },
          { examples: [{ now: '2026-01-08T10:00:00.000Z' }] },
        ),
      },
      errors: [],
    }),
    async (request) => {
      await clock.advance(BigInt(request.body.days) * DAY_MS);
      await runJobsOnce(deps.runner, request.log);
      return { now: clock.now().toISOString() };
    },
  );
}
