// Schema refusals as sentences: real ajv errors (options as app.ts sets them) for real TypeBox
// schemas, turned into the problem's `detail` and `errors` member.
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { Type } from '@fastify/type-provider-typebox';
import { validationProblem, type ValidationContext } from '../../src/http/plugins/validation-messages.js';
import { StringEnum } from '../../src/http/schemas/common.js';

const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: false, strict: false });

function refusal(schema: object, data: unknown, context: ValidationContext = 'body') {
  const validate = ajv.compile(schema);
  expect(validate(data)).toBe(false);
  return validationProblem(validate.errors!, context, schema);
}

const Body = Type.Object(
  {
    paymentMethod: Type.Optional(StringEnum(['instant', 'ach'])),
    amount: Type.Number({ exclusiveMinimum: 0 }),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 5 })),
    phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    mode: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])),
    days: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    at: Type.Optional(Type.String({ format: 'date-time' })),
    recipient: Type.Optional(Type.Object({ address: Type.String() }, { additionalProperties: false })),
    items: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
  },
  { additionalProperties: false },
);

describe('validation messages', () => {
  it.each([
    ['an enum names its values', { amount: 1, paymentMethod: 'wire' }, 'paymentMethod must be one of instant, ach.', '#/paymentMethod'],
    ['a union of literals names its values', { amount: 1, mode: 'c' }, 'mode must be one of a, b.', '#/mode'],
    ['a union of types names them', { amount: 1, phone: 5 }, 'phone must be a string or null.', '#/phone'],
    ['a missing field', {}, 'amount is required.', '#/amount'],
    ['a wrong type', { amount: '1' }, 'amount must be a number.', '#/amount'],
    [
      'an unknown field lists the known ones',
      { amount: 1, fee: 2 },
      'The request body has an unknown field "fee" (allowed: paymentMethod, amount, note, phone, mode, days, at, recipient, items).',
      '#/fee',
    ],
    ['an empty string', { amount: 1, note: '' }, 'note must not be empty.', '#/note'],
    ['a long string', { amount: 1, note: 'toolong' }, 'note must be at most 5 characters.', '#/note'],
    ['a bound', { amount: 1, days: 0 }, 'days must be at least 1.', '#/days'],
    ['an exclusive bound', { amount: 0 }, 'amount must be greater than 0.', '#/amount'],
    ['a whole number', { amount: 1, days: 1.5 }, 'days must be an integer.', '#/days'],
    [
      'a nested unknown field',
      { amount: 1, recipient: { address: 'x', chain: 'y' } },
      'recipient has an unknown field "chain" (allowed: address).',
      '#/recipient/chain',
    ],
    ['an array item', { amount: 1, items: [{ id: 'a' }, {}] }, 'items[1].id is required.', '#/items/1/id'],
    ['not an object', [], 'The request body must be an object.', '#'],
  ])('%s', (_what, data, detail, pointer) => {
    const problem = refusal(Body, data);
    expect(problem.detail).toBe(detail);
    expect(problem.errors).toEqual([{ detail: expect.any(String), pointer }]);
  });

  it('names query parameters and headers, and describes a pattern by its schema', () => {
    const query = Type.Object(
      { limit: Type.Optional(Type.String({ pattern: '^[1-9]$', description: 'a digit from 1 to 9' })) },
      { additionalProperties: false },
    );
    expect(refusal(query, { limit: '10' }, 'querystring')).toEqual({
      detail: 'limit is not in the expected form (a digit from 1 to 9).',
      errors: [{ detail: 'is not in the expected form (a digit from 1 to 9)', parameter: 'limit' }],
    });
    expect(refusal(query, { page: '2' }, 'querystring').detail).toBe(
      'The query string has an unknown query parameter "page" (allowed: limit).',
    );
    const headers = Type.Object({ 'x-payment-source': Type.Optional(Type.Literal('balance')) });
    expect(refusal(headers, { 'x-payment-source': 'card' }, 'headers')).toEqual({
      detail: 'The x-payment-source header must be balance.',
      errors: [{ detail: 'must be balance', header: 'x-payment-source' }],
    });
    const none = Type.Object({}, { additionalProperties: false });
    expect(refusal(none, { card: '4242' }).detail).toBe('The request body has an unknown field "card" (this operation takes no fields).');
  });

  it('still answers a sentence without the route schema', () => {
    const validate = ajv.compile(Body);
    validate({ amount: 1, paymentMethod: 'wire' });
    expect(validationProblem(validate.errors!, 'body', undefined).detail).toBe('paymentMethod must be one of instant, ach.');
  });
});
