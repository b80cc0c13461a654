// No request text may hold U+0000: PostgreSQL cannot store it in text and refuses any query that
// binds it, so a NUL in a name, an e-mail, a note or a query parameter became a 500. Refused
// here, once, for the query string, the path parameters and every string in a JSON body.
import { AppError } from '../../platform/errors.js';
import type { App } from '../types.js';

function nulIn(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  // Bodies are bounded by the body limit; the depth bound keeps a deeply nested one cheap.
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  for (const [key, item] of Object.entries(value)) if (key.includes('\u0000') || nulIn(item, depth + 1)) return true;
  return false;
}

export function registerTextInput(app: App): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['query', request.query],
      ['path', request.params],
      ['body', request.body],
    ] as const) {
      if (nulIn(value))
        throw new AppError('invalid_request', `The request ${part} contains a NUL character (U+0000), which no field accepts.`);
    }
  });
}
