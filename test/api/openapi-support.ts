// Reading the OpenAPI document in tests: its operations, and ajv validators for any schema in it
// (with the document's own components, formats checked), for the document test and the
// conformance test.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

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

/** The examples of a media type object: `example`, or every `examples` entry's value. */
export function examplesOf(media: any): { name: string; value: unknown }[] {
  if (media.example !== undefined) return [{ name: 'example', value: media.example }];
  return Object.entries<any>(media.examples ?? {}).map(([name, example]) => ({ name, value: example.value }));
}

export function errorText(validate: ValidateFunction): string {
  return JSON.stringify(validate.errors?.slice(0, 3));
}
