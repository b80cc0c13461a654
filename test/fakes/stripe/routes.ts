// An endpoint is two steps, kept apart because Stripe's idempotency depends on which one failed:
// `validate` reads the parameters (its refusals are never saved under an Idempotency-Key), and
// `execute` does the work (its result — success or error — is what a retry with the same key replays).
import { parameterError, StripeApiError } from './errors.js';
import type { FormHash } from './form-params.js';
import { type Context, snapshot } from './store.js';

export type Method = 'GET' | 'POST';

export interface Route {
  method: Method;
  /** Matches the path; a named group `id` is the object id in the URL. */
  pattern: RegExp;
  /** Runs `validate`, throwing parameter errors (not saveable). */
  prepare(params: FormHash, id: string | undefined, ctx: Context): () => object;
}

export function defineRoute<I>(spec: {
  method: Method;
  pattern: RegExp;
  validate(params: FormHash, id: string | undefined, ctx: Context): I;
  execute(input: I, ctx: Context): object;
}): Route {
  return {
    method: spec.method,
    pattern: spec.pattern,
    prepare(params, id, ctx) {
      let input: I;
      try {
        input = spec.validate(params, id, ctx);
      } catch (error) {
        if (error instanceof StripeApiError) error.saveable = false;
        throw error;
      }
      const expand = expandList(params);
      return () => expandPaths(spec.execute(input, ctx), expand, ctx);
    },
  };
}

function expandList(params: FormHash): string[] {
  const raw = params.expand;
  if (raw === undefined || typeof raw === 'string') return [];
  return Object.values(raw).filter((v): v is string => typeof v === 'string');
}

/**
 * `expand[]=setup_intent` replaces an id with the object it names (dotted paths nest). The stand-in
 * expands any field holding the id of an object it stores; anything else is refused as Stripe does.
 * On a list, a path starting `data.` expands that field of every item (`expand[]=data.source`).
 */
function expandPaths(result: object, paths: string[], ctx: Context): object {
  if (paths.length === 0) return result;
  const copy = snapshot(result) as Record<string, unknown>;
  for (const path of paths) {
    const parts = path.split('.');
    if (copy.object === 'list' && parts[0] === 'data' && Array.isArray(copy.data)) {
      for (const item of copy.data as Record<string, unknown>[]) expandPath(item, parts.slice(1), parts.slice(0, 1), ctx);
    } else {
      expandPath(copy, parts, [], ctx);
    }
  }
  return copy;
}

function expandPath(root: Record<string, unknown>, parts: string[], prefix: string[], ctx: Context): void {
  let target = root;
  parts.forEach((part, i) => {
    const refused = () =>
      parameterError(`This property cannot be expanded (${[...prefix, ...parts.slice(0, i + 1)].join('.')}).`, { param: 'expand' });
    const value = target[part];
    let next: unknown = value;
    if (typeof value === 'string') {
      const found = ctx.store.byId(value);
      if (found === undefined) throw refused();
      next = snapshot(found);
      target[part] = next;
    }
    if (next === null || typeof next !== 'object') throw refused();
    target = next as Record<string, unknown>;
  });
}

export function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; id: string | undefined } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (match) return { route, id: match.groups?.id === undefined ? undefined : decodeURIComponent(match.groups.id) };
  }
  return undefined;
}
