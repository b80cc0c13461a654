// Reading the OpenAPI document in tests: its operations, and ajv validators for any schema in it
// (with the document's own components, formats checked), for the document test and the
// conformance test.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { TestResponse, TestServer } from '../helpers/test-server.js';
import { BAD_KEY, type Call, type Case } from './openapi-conformance-cases.js';

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  operation: any;
}

export function operationsOf(doc: any): DocumentedOperation[] {
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      if (item[method]) out.push({ method: method.toUpperCase(), path, operationId: item[method].operationId, operation: item[method] });
    }
  }
  return out;
}

/** JSON Pointer of a member path, for ajv $refs into the document. */
export function pointer(...segments: string[]): string {
  return '#/' + segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/**
 * Validators of the document's schemas. The document is added whole under its own id, so a schema
 * at any pointer is compiled with the `#/components/schemas/...` references it contains.
 */
export function documentValidators(doc: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  // OpenAPI's own annotation keyword in schemas.
  ajv.addKeyword({ keyword: 'example' });
  ajv.addSchema(doc as object, 'openapi.json');
  const cache = new Map<string, ValidateFunction>();
  return (schemaPointer: string): ValidateFunction => {
    let validate = cache.get(schemaPointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json${schemaPointer}` });
      cache.set(schemaPointer, validate);
    }
    return validate;
  };
}

/** The examples of a media type object: `example`, or every `examples` entry's value (references to `#/components/examples` followed). */
export function examplesOf(media: any, doc: any): { name: string; value: unknown }[] {
  if (media.example !== undefined) return [{ name: 'example', value: media.example }];
  return Object.entries<any>(media.examples ?? {}).map(([name, example]) => {
    const ref: string | undefined = example.$ref;
    const resolved = ref?.startsWith('#/components/examples/')
      ? doc.components?.examples?.[ref.slice('#/components/examples/'.length)]
      : example;
    if (resolved === undefined) throw new Error(`example ${name}: ${ref} names no example of the document`);
    return { name, value: resolved.value };
  });
}

export function errorText(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors?.slice(0, 3));
}

/** A running service and its document, for checking answers against it. */
export interface Target {
  server: TestServer;
  operations: DocumentedOperation[];
  validatorAt: ReturnType<typeof documentValidators>;
}

export async function targetOf(server: TestServer): Promise<Target> {
  const answer = await server.request('GET', '/openapi.json');
  expect(answer.status).toBe(200);
  return { server, operations: operationsOf(answer.body), validatorAt: documentValidators(answer.body) };
}

/** The documented operation a request reaches, by method and path. */
export function operationOf(target: Target, method: string, path: string): DocumentedOperation | undefined {
  const pathname = new URL(path, 'http://peerpay.test').pathname;
  // A documented path's {parameter} segments match any one segment.
  const matches = (template: string) =>
    template === pathname ||
    new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`).test(pathname);
  return target.operations.find((o) => o.method === method && matches(o.path));
}

/** Fails unless the answer is one the document allows for the operation. */
export function expectConforms(target: Target, op: DocumentedOperation, response: TestResponse): void {
  const where = `${op.method} ${op.path} (${op.operationId}) answered ${response.status}`;
  const documented = op.operation.responses[String(response.status)];
  expect(
    documented,
    `${where}, a status the document does not list (${Object.keys(op.operation.responses).join(', ')}): ${response.text.slice(0, 300)}`,
  ).toBeDefined();
  const mediaType = String(response.headers.get('content-type')).split(';')[0]!.trim();
  expect(Object.keys(documented.content), `${where} as ${mediaType}`).toContain(mediaType);
  const validate = target.validatorAt(
    pointer('paths', op.path, op.method.toLowerCase(), 'responses', String(response.status), 'content', mediaType, 'schema'),
  );
  expect(
    validate(response.body),
    `${where}: the body does not match its schema: ${errorText(validate)}\n${response.text.slice(0, 500)}`,
  ).toBe(true);
  if (response.status >= 400) {
    expect(op.operation['x-problem-codes'][String(response.status)], `${where} with code ${response.body?.code}`).toContain(
      response.body?.code,
    );
    // The headers a client acts on are documented where they are sent.
    const documentedHeaders = Object.keys(documented.headers ?? {}).map((h) => h.toLowerCase());
    for (const header of ['retry-after', 'www-authenticate', 'payment-required']) {
      if (response.headers.has(header)) expect(documentedHeaders, `${where} with a ${header} header`).toContain(header);
    }
  }
}

/** Sends a call and checks the answer against the operation it reaches (and, given, that it is `expected`). */
export async function perform(target: Target, call: Call, expected?: DocumentedOperation): Promise<TestResponse> {
  const op = operationOf(target, call.method, call.path);
  expect(op, `${call.method} ${call.path} is a documented operation`).toBeDefined();
  if (expected) expect(op!.operationId, `${call.method} ${call.path}`).toBe(expected.operationId);
  const headers: Record<string, string> = { ...call.headers };
  const key = call.as === 'bad' ? BAD_KEY : call.as === 'none' || call.as === undefined ? undefined : call.as.key;
  if (call.raw) headers['content-type'] = call.raw.type;
  const body = call.raw ? { rawBody: call.raw.text } : call.body !== undefined ? { body: call.body } : {};
  const response = await target.server.request(call.method, call.path, { ...(key ? { key } : {}), headers, ...body });
  expectConforms(target, op!, response);
  expect(response.status, `${call.method} ${call.path}: ${response.text.slice(0, 300)}`).toBe(call.status);
  if (call.code) expect(response.body.code).toBe(call.code);
  return response;
}

/** Runs a case: at least one success and one refusal, each call checked against `op`. */
export async function runCase(target: Target, op: DocumentedOperation | undefined, { success, errors }: Case): Promise<void> {
  expect(op, 'the operation is in the document').toBeDefined();
  expect(success.length, 'a success path').toBeGreaterThan(0);
  expect(errors.length, 'an error path').toBeGreaterThan(0);
  for (const call of success) expect(call.status).toBeLessThan(300);
  for (const call of errors) expect(call.status).toBeGreaterThanOrEqual(400);
  for (const call of [...success, ...errors]) await perform(target, call, op);
}
