// The OpenAPI document of live mode (PostgreSQL, a Stripe stand-in, an external chain): valid
// OpenAPI 3.1 with a case for every operation, here or in the sandbox conformance test; the
// operations only live mode serves are driven through success and refusal and their answers
// checked against the document, as openapi-conformance.test.ts does for sandbox mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { LIVE_STRIPE_WEBHOOK_SECRET, liveModeAvailable, LIVE_MODE_NEEDS, startLiveWorld, type LiveWorld } from '../helpers/live-mode.js';
import { CASES, LIVE_CASES } from './openapi-conformance-cases.js';
import { documentValidators, errorText, examplesOf, operationsOf, pointer, runCase, targetOf, type Target } from './openapi-support.js';
import { runsIf } from '../helpers/runs-if.js';

describe.runIf(runsIf(liveModeAvailable(), LIVE_MODE_NEEDS))('the OpenAPI document in live mode', () => {
  let live: LiveWorld;
  let target: Target;
  let doc: any;

  beforeAll(async () => {
    live = await startLiveWorld();
    target = await targetOf(live.server);
    doc = (await live.server.request('GET', '/openapi.json')).body;
  }, 120_000);
  afterAll(async () => {
    await live?.close();
  });

  it('is valid OpenAPI 3.1, its operationIds unique, its examples valid', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    const ids = operationsOf(doc).map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const validatorAt = documentValidators(doc);
    for (const { method, path, operation } of operationsOf(doc)) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        for (const [type, media] of Object.entries<any>(response.content)) {
          const validate = validatorAt(pointer('paths', path, method.toLowerCase(), 'responses', status, 'content', type, 'schema'));
          const examples = examplesOf(media, doc);
          expect(examples.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const example of examples)
            expect(validate(example.value), `${method} ${path} ${status} ${example.name}: ${errorText(validate)}`).toBe(true);
        }
      }
    }
  });

  it('has a case for every operation, and no test helpers', () => {
    const ids = target.operations.map((o) => o.operationId);
    expect(
      ids.filter((id) => !(id in CASES) && !(id in LIVE_CASES)),
      'operations without a conformance case',
    ).toEqual([]);
    expect(
      Object.keys(LIVE_CASES).filter((id) => !ids.includes(id)),
      'live cases of operations live mode does not serve',
    ).toEqual([]);
    expect(target.operations.filter((o) => o.path.startsWith('/test-helpers'))).toEqual([]);
  });

  it.each(Object.keys(LIVE_CASES))('%s answers what the document says, on success and on refusal', async (operationId) => {
    const op = target.operations.find((o) => o.operationId === operationId);
    await runCase(target, op, LIVE_CASES[operationId]!({ webhookSecret: LIVE_STRIPE_WEBHOOK_SECRET }));
  });
});
