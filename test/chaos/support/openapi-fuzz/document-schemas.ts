// The document's own request-body schemas, compiled: a body the document calls invalid must not be
// accepted (2xx) by the route, or the document does not describe what the route takes.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Operation } from './cases.js';

export type BodyCheck = (body: string | undefined, contentType: string | string[] | undefined) => string | null;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

/** Request bodies in the document are written out whole (no $ref), so each compiles alone. */
export function documentBodyCheck(op: Operation): BodyCheck | null {
  if (!op.body) return null;
  const validate = ajv.compile(op.body);
  return (body, contentType) => {
    if (
      body === undefined ||
      !String(contentType ?? '')
        .toLowerCase()
        .startsWith('application/json')
    )
      return null;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return 'the body is not JSON';
    }
    if (validate(value)) return null;
    const error = validate.errors?.[0];
    return `body${error?.instancePath ?? ''} ${error?.message ?? 'is invalid'}`;
  };
}
