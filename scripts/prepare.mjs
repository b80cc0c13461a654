// `npm ci` and `npm install` run this (the `prepare` script): it compiles the workspace packages
// (packages/*/src into packages/*/dist) and src/ into dist/, which
// `npm start` runs with node, then writes dist/pglite-template.tar.gz (a first start's database).
// Emit only (--noCheck): the type check is `npm run build` and `npm test`'s, and an install should
// not take its time. Without TypeScript (an install with
// --omit=dev) it says so in one line and leaves dist/ as it is: build it where TypeScript is.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.warn(
    'peerpay: TypeScript is not installed (an install without dev dependencies); dist/ was not built: run `npm run build` where it is',
  );
  process.exit(0);
}
// The workspace packages first, in dependency order (the SDK, the MCP tools on it, the CLI on
// both): the service's MCP server (src/mcp/) imports @peerpay/mcp from its dist/.
for (const pkg of ['packages/client', 'packages/mcp', 'packages/cli']) {
  const built = spawnSync(process.execPath, [tsc, '-p', `${pkg}/tsconfig.json`, '--noCheck'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
// The migrated database a first start unpacks (src/startup/pglite-template.ts); never fails the install.
spawnSync(process.execPath, ['scripts/pglite-template.mjs'], { stdio: 'inherit' });
