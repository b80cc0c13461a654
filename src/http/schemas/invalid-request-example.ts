// The example 400 `invalid_request` of an operation, made from the operation's own inputs, so that
// the document never shows an operation refusing a field it does not have (a shared example naming
// POST /transfers' `paymentMethod` was shown for every operation). The wording is the validator's
// (http/plugins/validation-messages.ts).
/** The parts of an operation's schema this reads: JSON Schemas of the body, query and path. */
interface Inputs {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
}

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

function propertiesOf(schema: unknown): { names: string[]; required: string[] } {
  const object = (schema ?? {}) as ObjectSchema;
  return { names: Object.keys(object.properties ?? {}), required: object.required ?? [] };
}

/** The members of the example problem (detail, errors) for an operation with these inputs. */
export function invalidRequestExample(spec: Inputs): Record<string, unknown> {
  if (spec.body !== undefined) {
    const { names, required } = propertiesOf(spec.body);
    const field = required[0] ?? names[0];
    // A body of no fields: what is refused is the body's shape, not a field of it.
    if (field === undefined)
      return { detail: 'The request body must be an object.', errors: [{ detail: 'must be an object', pointer: '#' }] };
    return { detail: `${field} is required.`, errors: [{ detail: 'is required', pointer: `#/${field}` }] };
  }
  const parameter = propertiesOf(spec.querystring).names[0] ?? propertiesOf(spec.params).names[0];
  if (parameter !== undefined)
    return {
      detail: `${parameter} is not in the expected form.`,
      errors: [{ detail: 'is not in the expected form', parameter }],
    };
  return { detail: 'The request query contains a NUL character (U+0000), which no field accepts.' };
}
