// GET /openapi.json as a product that clients are generated from: a valid OpenAPI 3.1 document
// (checked against the official 3.1 schema by @seriousme/openapi-schema-validator), a unique,
// stable operationId on every operation, every error documented as application/problem+json over
// the shared Problem schema with the codes the operation can answer (and those codes' statuses as
// problem-details.ts maps them), and an example for every request body and response that
// validates against its schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CODES, type ErrorCode } from '../../src/platform/errors.js';
import { statusOf } from '../../src/http/plugins/problem-details.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { documentValidators, errorText, examplesOf, operationsOf, pointer } from './openapi-support.js';

let server: TestServer;
let doc: any;

beforeAll(async () => {
  server = await startTestServer();
  const response = await server.request('GET', '/openapi.json');
  expect(response.status).toBe(200);
  doc = response.body;
});
afterAll(async () => {
  await server?.close();
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('gives every operation a unique camelCase operationId, a tag and a summary', () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(30);
    const ids = operations.map((o) => o.operationId);
    for (const { method, path, operationId, operation } of operations) {
      expect(operationId, `${method} ${path} has an operationId`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(operation.tags, `${method} ${path} has one tag`).toHaveLength(1);
      expect(
        doc.tags.map((t: { name: string }) => t.name),
        `${method} ${path}: its tag is described`,
      ).toContain(operation.tags[0]);
      expect(operation.summary, `${method} ${path} has a summary`).toBeTruthy();
    }
    expect(new Set(ids).size, `duplicates: ${ids.filter((id, i) => ids.indexOf(id) !== i).join(', ')}`).toBe(ids.length);
    // Names clients are generated from: renaming one breaks them.
    for (const [method, path, id] of [
      ['POST', '/agent/register', 'registerAgent'],
      ['POST', '/transfers', 'createTransfer'],
      ['GET', '/stablecoin/balance', 'getStablecoinBalance'],
      ['POST', '/stablecoin/withdraw', 'createWithdrawal'],
      ['POST', '/agent/transfer', 'createAgentTransfer'],
    ]) {
      expect(doc.paths[path!][method!.toLowerCase()].operationId).toBe(id);
    }
  });

  it('documents every error as application/problem+json over the Problem schema, with the codes of each status', () => {
    const problem = doc.components.schemas.Problem;
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'code']);
    expect(problem.properties.code.enum).toEqual([...ERROR_CODES]);
    for (const member of ['requestId', 'errors', 'minimum', 'needsBankDebitSetup'])
      expect(problem.properties[member], member).toBeDefined();
    for (const { method, path, operation } of operationsOf(doc)) {
      const where = `${method} ${path}`;
      const declared: Record<string, ErrorCode[]> = operation['x-problem-codes'];
      const errorStatuses = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      expect(Object.keys(declared).sort(), `${where}: x-problem-codes names every error status`).toEqual(errorStatuses.sort());
      for (const status of errorStatuses) {
        const response = operation.responses[status];
        expect(Object.keys(response.content), `${where} ${status}`).toEqual(['application/problem+json']);
        const media = response.content['application/problem+json'];
        expect(JSON.stringify(media.schema)).toContain('"$ref":"#/components/schemas/Problem"');
        const narrowed = media.schema.allOf.at(-1);
        expect(narrowed.properties.code.enum, `${where} ${status}: code enum`).toEqual(declared[status]);
        expect(narrowed.properties.status.enum, `${where} ${status}: status`).toEqual([Number(status)]);
        for (const code of declared[status]!) {
          expect(ERROR_CODES, `${where}: ${code} is a peerpay code`).toContain(code);
          expect(statusOf(code), `${where}: ${code} is answered with ${statusOf(code)}, documented under ${status}`).toBe(Number(status));
          expect(response.description, `${where} ${status} describes ${code}`).toContain(`\`${code}\``);
          expect(media.examples?.[code], `${where} ${status} has an example of ${code}`).toBeDefined();
        }
      }
      // What every operation can answer, whatever it does.
      for (const code of ['invalid_request', 'internal_error', 'service_unavailable'] as const) {
        expect(declared[String(statusOf(code))], `${where} documents ${code}`).toContain(code);
      }
      if (['POST', 'PUT', 'PATCH'].includes(method) && path !== '/webhooks/stripe') {
        for (const code of ['malformed_json', 'body_too_large', 'unsupported_media_type'] as const) {
          expect(declared[String(statusOf(code))], `${where} documents ${code}`).toContain(code);
        }
      }
      if (operation.security === undefined || operation.security.some((s: object) => 'bearer' in s)) {
        expect(declared['401'], `${where} documents unauthorized`).toContain('unauthorized');
      }
    }
  });

  it('has an example for every request body and every response, valid against its schema', () => {
    const validatorAt = documentValidators(doc);
    let checked = 0;
    for (const { method, path, operation } of operationsOf(doc)) {
      const base = ['paths', path, method.toLowerCase()];
      const media: [string, string[], any][] = [];
      for (const [type, m] of Object.entries<any>(operation.requestBody?.content ?? {}))
        media.push([`${method} ${path} request ${type}`, [...base, 'requestBody', 'content', type], m]);
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        expect(response.content, `${method} ${path} ${status} has content`).toBeDefined();
        for (const [type, m] of Object.entries<any>(response.content))
          media.push([`${method} ${path} ${status} ${type}`, [...base, 'responses', status, 'content', type], m]);
      }
      for (const [where, segments, m] of media) {
        const examples = examplesOf(m, doc);
        expect(examples.length, `${where} has an example`).toBeGreaterThan(0);
        const validate = validatorAt(pointer(...segments, 'schema'));
        for (const example of examples) {
          expect(validate(example.value), `${where} example ${example.name}: ${errorText(validate)}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('has an example for every parameter, valid against its schema', () => {
    const validatorAt = documentValidators(doc);
    for (const { method, path, operation } of operationsOf(doc)) {
      (operation.parameters ?? []).forEach((parameter: any, i: number) => {
        const where = `${method} ${path} ${parameter.in} ${parameter.name}`;
        const examples =
          parameter.example !== undefined ? [parameter.example] : Object.values<any>(parameter.examples ?? {}).map((e) => e.value);
        expect(examples.length, `${where} has an example`).toBeGreaterThan(0);
        const validate = validatorAt(pointer('paths', path, method.toLowerCase(), 'parameters', String(i), 'schema'));
        for (const example of examples) expect(validate(example), `${where}: ${errorText(validate)}`).toBe(true);
      });
    }
  });

  it('shows the body-less POST operations without a request body', () => {
    for (const path of [
      '/agent/setup-link',
      '/agent/connect-link',
      '/agent/bank-debit-link',
      '/account/revoke-key',
      '/account/revoke-all-keys',
      '/stablecoin/wallet',
    ]) {
      expect(doc.paths[path].post.requestBody, path).toBeUndefined();
    }
  });

  it('documents enumerations as string enums, never as unions of single values', () => {
    const unions: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as Record<string, any>;
      if (
        Array.isArray(schema.anyOf) &&
        schema.anyOf.length > 1 &&
        schema.anyOf.every((b: any) => Array.isArray(b.enum) && b.enum.length === 1)
      )
        unions.push(where);
      for (const [key, value] of Object.entries(schema)) if (key !== 'examples' && key !== 'example') walk(value, `${where}/${key}`);
    };
    walk(doc, '#');
    expect(unions).toEqual([]);
    expect(doc.paths['/transfers'].post.requestBody.content['application/json'].schema.properties.paymentMethod).toMatchObject({
      type: 'string',
      enum: ['instant', 'ach'],
    });
  });
});

describe('validation messages name what is allowed', () => {
  it.each([
    [
      'an enumeration',
      { paymentMethod: 'wire' },
      'paymentMethod must be one of instant, ach.',
      { detail: 'must be one of instant, ach', pointer: '#/paymentMethod' },
    ],
    ['a missing field', { amount: undefined }, 'amount is required.', { detail: 'is required', pointer: '#/amount' }],
    ['a wrong type', { amount: '10' }, 'amount must be a number.', { detail: 'must be a number', pointer: '#/amount' }],
    [
      'an unknown field',
      { fee: 1 },
      'The request body has an unknown field "fee" (allowed: recipientHandle, amount, currency, paymentMethod, note).',
      { detail: 'has an unknown field "fee" (allowed: recipientHandle, amount, currency, paymentMethod, note)', pointer: '#/fee' },
    ],
  ])('%s', async (_what, change, detail, error) => {
    const user = await registerFresh();
    const body = { recipientHandle: 'PA-AAAAAAAA', amount: 10, currency: 'USD', ...change };
    const response = await server.request('POST', '/transfers', { key: user, body });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'invalid_request', detail, errors: [error] });
  });

  it('names the allowed values of a header and the form of a query parameter', async () => {
    const header = await server.request('GET', '/nano/lookup?handle=PA-AAAAAAAA', { headers: { 'x-payment-source': 'card' } });
    expect(header.body).toMatchObject({
      code: 'invalid_request',
      detail: 'The x-payment-source header must be balance.',
      errors: [{ header: 'x-payment-source' }],
    });
    const user = await registerFresh();
    const limit = await server.request('GET', '/transfers?limit=500', { key: user });
    expect(limit.body.detail).toBe('limit is not in the expected form (page size, a whole number from 1 to 100; default 20).');
    expect(limit.body.errors).toEqual([{ detail: expect.any(String), parameter: 'limit' }]);
    const unknown = await server.request('GET', '/transfers?page=2', { key: user });
    expect(unknown.body.detail).toBe('The query string has an unknown query parameter "page" (allowed: limit, cursor).');
    const nullable = await server.request('PATCH', '/account', { key: user, body: { phone: 5 } });
    expect(nullable.body.detail).toBe('phone must be a string or null.');
  });
});

let registered = 0;
async function registerFresh(): Promise<string> {
  registered++;
  const response = await server.request('POST', '/agent/register', {
    body: { email: `doc-${registered}-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Doc Tester' },
  });
  expect(response.status).toBe(201);
  return response.body.apiKey;
}
