// The SDK's generated files (packages/client/src/openapi.ts and operations.ts) from the service's
// OpenAPI document. `npm run generate:client` builds the sandbox service in-process on a scratch
// DATA_DIR, reads GET /openapi.json through app.inject and writes both files;
// test/clients/sdk-types.test.ts regenerates them from a test server's document and fails when the
// committed files differ.
import openapiTS, { astToString } from 'openapi-typescript';

export const GENERATED_FILES = {
  types: 'packages/client/src/openapi.ts',
  operations: 'packages/client/src/operations.ts',
} as const;

const HEADER = "// Generated from peerpay's GET /openapi.json by `npm run generate:client` (scripts/client-types.ts). Do not edit.\n";

interface OpenApiOperation {
  operationId?: string;
  parameters?: { in: string; name: string }[];
}

/** Both generated files' text, from the OpenAPI document. */
export async function generateClientFiles(document: Record<string, unknown>): Promise<{ types: string; operations: string }> {
  const ast = await openapiTS(document as never, { exportType: false, alphabetize: true });
  const types = HEADER + '/* eslint-disable */\n' + astToString(ast);
  const rows: string[] = [];
  const paths = document.paths as Record<string, Record<string, OpenApiOperation>>;
  for (const path of Object.keys(paths).sort()) {
    for (const method of Object.keys(paths[path]!).sort()) {
      const op = paths[path]![method]!;
      if (!op.operationId) continue;
      const idempotent = (op.parameters ?? []).some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      rows.push(`  ${op.operationId}: { method: '${method.toUpperCase()}', path: '${path}', idempotent: ${idempotent} },`);
    }
  }
  const membersByCode = (document as { components?: { schemas?: { Problem?: Record<string, unknown> } } }).components?.schemas?.Problem?.[
    'x-members-by-code'
  ];
  if (typeof membersByCode !== 'object' || membersByCode === null) throw new Error('the Problem schema has no x-members-by-code');
  const operations =
    HEADER +
    '/* eslint-disable */\n' +
    '/** Every operation of the document by operationId: its method, path, and whether it takes an Idempotency-Key (the calls that move money). */\n' +
    `export const OPERATIONS = {\n${rows.sort().join('\n')}\n} as const;\n\nexport type OperationId = keyof typeof OPERATIONS;\n` +
    '\n/** The extension members of the problem document each error code carries: always, or only sometimes (x-members-by-code). */\n' +
    `export const PROBLEM_MEMBERS = ${JSON.stringify(membersByCode, null, 2)} as const;\n`;
  return { types, operations };
}
