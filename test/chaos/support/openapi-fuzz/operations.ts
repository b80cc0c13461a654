// What the fuzzer sends requests to: every path and method of /openapi.json, the same GET paths
// with HEAD, the link pages the document hides (their token is the path parameter), and the
// routes served beside the document (the document itself, metrics, the API explorer).
import type { Operation } from './cases.js';
import { LINK_PURPOSES } from './fuzz-world.js';
import type { Hints } from './schema-values.js';

export function documentedOperations(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const statuses = Object.keys(op.responses ?? {}).map(Number);
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
        statuses,
      });
    }
  }
  return ops;
}

export function undocumentedOperations(documented: Operation[], hints: Hints, users: number): Operation[] {
  const ops: Operation[] = documented.filter((op) => op.method === 'GET').map((op) => ({ ...op, method: 'HEAD' }));
  for (const path of ['/openapi.json', '/metrics', '/docs', '/docs/json', '/docs/yaml', '/docs/static/index.html'])
    ops.push({ method: 'GET', path, parameters: [] });
  for (const purpose of LINK_PURPOSES) {
    const path = `/links/${purpose}/{token}`;
    // A fresh token of this kind, or one of another kind (which names nothing here).
    const other = LINK_PURPOSES.find((p) => p !== purpose)!;
    hints[`path:${path}:token`] = [...Array.from({ length: users }, (_, n) => `{{link:${purpose}:${n}}}`), `{{link:${other}:0}}`];
    const parameters = [{ in: 'path', name: 'token', required: true, schema: { type: 'string', maxLength: 200 } }];
    for (const method of ['GET', 'HEAD', 'POST']) ops.push({ method, path, parameters, acceptsForm: method === 'POST', page: true });
  }
  return ops;
}
