// Stripe's list endpoints: newest first, `limit` 1–100 (default 10), cursors `starting_after` /
// `ending_before` naming an object of the list, `created` as an exact time or a range
// (`created[gte]=…&created[lt]=…`), answered as `{object: 'list', data, has_more, url}`.
import { invalidRequest, parameterError } from './errors.js';
import type { FormNode } from './form-params.js';
import { type Field, integer, string } from './params.js';

export interface CreatedRange {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

const RANGE_KEYS = ['gt', 'gte', 'lt', 'lte'] as const;

/** `created=…` (exactly then) or `created[gte]=…` and friends. */
export function createdRange(): Field<CreatedRange> {
  const int = integer();
  return {
    required: false,
    read(raw: FormNode, name: string): CreatedRange {
      if (typeof raw === 'string') {
        const at = int.read(raw, name);
        return { gte: at, lte: at };
      }
      const out: CreatedRange = {};
      for (const [key, value] of Object.entries(raw)) {
        if (!(RANGE_KEYS as readonly string[]).includes(key))
          throw parameterError(`Received unknown parameter: ${name}[${key}]`, { code: 'parameter_unknown', param: `${name}[${key}]` });
        if (value === '') continue;
        out[key as (typeof RANGE_KEYS)[number]] = int.read(value, `${name}[${key}]`);
      }
      return out;
    },
  };
}

export function listLimit(): Field<number> {
  const int = integer();
  return {
    required: false,
    read(raw, name) {
      const value = int.read(raw, name);
      if (value < 1 || value > 100)
        throw parameterError('This value must be greater than or equal to 1 and less than or equal to 100.', {
          code: 'parameter_invalid_integer',
          param: name,
        });
      return value;
    },
  };
}

/** The parameters every list endpoint takes. */
export const listSpec = { limit: listLimit(), starting_after: string(), ending_before: string() };

export interface ListInput {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
  created?: CreatedRange;
}

export function inRange(created: number, range: CreatedRange | undefined): boolean {
  if (range === undefined) return true;
  return (
    (range.gt === undefined || created > range.gt) &&
    (range.gte === undefined || created >= range.gte) &&
    (range.lt === undefined || created < range.lt) &&
    (range.lte === undefined || created <= range.lte)
  );
}

/**
 * One page of `items` (in the order they were made), newest first. A cursor must name an object of
 * the list as filtered, as Stripe's must.
 */
export function listPage<T extends { id: string; created: number }>(
  items: readonly T[],
  input: ListInput,
  url: string,
  kind: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
  const newestFirst = items.filter((item) => inRange(item.created, input.created)).reverse();
  const limit = input.limit ?? 10;
  let from = 0;
  let to = newestFirst.length;
  if (input.starting_after !== undefined) from = cursorIndex(newestFirst, input.starting_after, 'starting_after', kind) + 1;
  if (input.ending_before !== undefined) to = cursorIndex(newestFirst, input.ending_before, 'ending_before', kind);
  const window = newestFirst.slice(from, to);
  // ending_before pages backwards: the `limit` items just before the cursor.
  const data = input.ending_before !== undefined && input.starting_after === undefined ? window.slice(-limit) : window.slice(0, limit);
  return { object: 'list', data, has_more: window.length > data.length, url };
}

function cursorIndex<T extends { id: string }>(items: readonly T[], id: string, param: string, kind: string): number {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) throw invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param });
  return index;
}
