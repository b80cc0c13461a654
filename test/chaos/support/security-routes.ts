// The route inventory the security checks start from: every operation the OpenAPI document
// publishes and every route the router knows (hidden ones included: link pages, docs, metrics),
// so that a route added later cannot escape the cross-user and revoked-key checks unnoticed.
import type { TestServer } from '../../helpers/test-server.js';

export interface PublishedOperation {
  method: string;
  /** Path in router form: `{id}` written as `:id`. */
  path: string;
  operation: any;
}

/** `GET /links/funding/:token` style key, shared by the published and the router's lists. */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export async function publishedOperations(server: TestServer): Promise<{ document: any; operations: PublishedOperation[] }> {
  const answer = await server.request('GET', '/openapi.json');
  if (answer.status !== 200) throw new Error(`GET /openapi.json: ${answer.status}`);
  const document = answer.body;
  const operations: PublishedOperation[] = [];
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      operations.push({ method: method.toUpperCase(), path: path.replace(/\{([^}]+)\}/g, ':$1'), operation });
    }
  }
  return { document, operations };
}

/** Who may call an operation, as the document says: the document's bearer unless the operation says otherwise. */
export function securityOf(operation: any): 'public' | 'optional' | 'required' {
  if (!Array.isArray(operation.security)) return 'required';
  if (operation.security.length === 0) return 'public';
  return operation.security.some((s: object) => Object.keys(s).length === 0) ? 'optional' : 'required';
}

/**
 * Every route of the running app as `METHOD path`, read from Fastify's route tree (printRoutes),
 * whose lines are `├── segment (GET, HEAD)` indented four columns per level, each segment
 * continuing its parent's path.
 */
export function routerRoutes(server: TestServer): string[] {
  const tree = server.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 4));
    if (!match) continue;
    const path = (depth > 0 ? (stack[depth - 1] ?? '') : '') + match[1]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[2] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean))
      routes.push(routeKey(method, path));
  }
  return [...new Set(routes)];
}

/** Does a router path take part of the URL as a parameter (`:name` or a `*` wildcard)? */
export const hasPathParameter = (path: string) => /(^|\/):|\*/.test(path);
