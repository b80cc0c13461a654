// Stripe's v1 API takes application/x-www-form-urlencoded bodies (and GET query strings) whose keys
// use bracket notation for nesting: `metadata[a]=b`, `capabilities[transfers][requested]=true`,
// and arrays as either `payment_method_types[]=card` or `payment_method_types[0]=card` (stripe-node
// sends the indexed form). This module turns such a string into a tree; it does not decide what the
// tree means — the endpoint's parameter spec (params.ts) does, because only it knows whether
// `x[0]` is the first item of an array or a hash key called "0".

/** A parsed value: a string leaf, or a hash of further values. Arrays stay hashes keyed "0", "1", … */
export type FormNode = string | FormHash;
export interface FormHash {
  [key: string]: FormNode;
}

/** Thrown for bodies that cannot be read as Stripe parameters at all (e.g. `a=1&a[b]=2`). */
export class FormShapeError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** A hash with no prototype, so keys such as `__proto__` or `constructor` are plain data. */
export function emptyHash(): FormHash {
  return Object.create(null) as FormHash;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    // A stray `%` is kept literally rather than failing the whole request.
    return part;
  }
}

/** Splits `a[b][]` into ['a', 'b', '']; a key with unbalanced brackets is one literal name. */
export function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const match = /^\[([^[\]]*)\]/.exec(rest);
    if (!match) return [key];
    segments.push(match[1] ?? '');
    rest = rest.slice(match[0].length);
  }
  return segments;
}

/** The bracket spelling of a path, as Stripe names parameters in errors: `a[b][0]`. */
export function paramName(segments: readonly string[]): string {
  const [head, ...tail] = segments;
  return (head ?? '') + tail.map((s) => `[${s}]`).join('');
}

function nextIndex(hash: FormHash): string {
  let n = 0;
  while (Object.prototype.hasOwnProperty.call(hash, String(n))) n += 1;
  return String(n);
}

export function parseForm(raw: string): FormHash {
  const root = emptyHash();
  if (raw.length === 0) return root;
  for (const pair of raw.split('&')) {
    if (pair.length === 0) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
    const segments = splitKey(key);
    let container = root;
    for (let i = 0; i < segments.length; i += 1) {
      const written = segments.slice(0, i + 1);
      // `x[]` appends: the next free index in that hash.
      const segment = segments[i] === '' && i > 0 ? nextIndex(container) : (segments[i] ?? '');
      written[i] = segment;
      const last = i === segments.length - 1;
      const existing = Object.prototype.hasOwnProperty.call(container, segment) ? container[segment] : undefined;
      if (last) {
        if (existing !== undefined && typeof existing !== 'string') {
          throw new FormShapeError(
            `Invalid value for ${paramName(written)}: it was sent both as a hash and as a value.`,
            paramName(written),
          );
        }
        // Repeated scalar keys: the last one wins, as Rack-style parsers do.
        container[segment] = value;
      } else {
        if (typeof existing === 'string') {
          throw new FormShapeError(
            `Invalid value for ${paramName(written)}: it was sent both as a value and as a hash.`,
            paramName(written),
          );
        }
        const child = existing ?? emptyHash();
        container[segment] = child;
        container = child;
      }
    }
  }
  return root;
}

/** A stable spelling of a parsed tree, so two requests can be compared for "same parameters". */
export function canonical(node: FormNode): string {
  if (typeof node === 'string') return JSON.stringify(node);
  const keys = Object.keys(node).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(node[k] as FormNode)}`).join(',')}}`;
}
