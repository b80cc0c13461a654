// What is loaded on first use instead of at start (decision 0054): the MCP SDK with peerpay's MCP
// tools, and @x402/evm with the core's facilitator; and only in live mode, Stripe's SDK (decision 0058);
// and never, what the HTTP schemas do not use of their TypeBox packages (decision 0070). The whole service's module graph (deps, app,
// job runner) is imported in a child process that records every module it loads; none of those may
// be among them. And loadOnce, which both use: one load for concurrent first callers, a retry after
// a failed load. (That the MCP server and the x402 payments work on first use is what the MCP and
// nano tests show: their first request loads the modules.)
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnce } from '../../src/platform/load-once.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-first-use-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The URL of every module the service's module graph loads, from a fresh process. */
async function modulesLoadedByTheServiceGraph(): Promise<string[]> {
  const hooks = path.join(dir, 'hooks.mjs');
  const list = path.join(dir, 'loaded.txt');
  fs.writeFileSync(
    hooks,
    `import fs from 'node:fs';\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, context); }\n`,
  );
  const script = [
    `import { register } from 'node:module';`,
    `register(${JSON.stringify(`file://${hooks}`)});`,
    `await import('./src/deps.ts'); await import('./src/app.ts'); await import('./src/jobs/job-runner.ts');`,
  ].join('\n');
  await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd() });
  return fs.readFileSync(list, 'utf8').split('\n').filter(Boolean);
}

describe('modules loaded on first use', () => {
  it('the service graph does not load the MCP SDK, the MCP tools, @x402/evm or Stripe at start', { timeout: 60_000 }, async () => {
    const loaded = await modulesLoadedByTheServiceGraph();
    // The list is real: the graph was loaded, the HTTP layer and the confirmations module among it.
    expect(loaded.some((url) => url.endsWith('/src/app.ts'))).toBe(true);
    expect(loaded.some((url) => url.endsWith('/packages/mcp/dist/confirmations.js'))).toBe(true);
    expect(
      loaded.filter((url) => /@modelcontextprotocol\/sdk|@x402\/evm|packages\/mcp\/dist\/index\.js|node_modules\/stripe\//.test(url)),
    ).toEqual([]);
  });

  it(
    'the HTTP schemas load typebox itself, not the type provider with its validator compiler (decision 0070)',
    { timeout: 60_000 },
    async () => {
      const loaded = await modulesLoadedByTheServiceGraph();
      expect(loaded.some((url) => /node_modules\/typebox\/build\/type\//.test(url))).toBe(true);
      // The provider's run-time is a validator compiler peerpay does not use (ajv validates), with
      // typebox's compiler and value functions: about 150 more modules at start.
      expect(loaded.filter((url) => /@fastify\/type-provider-typebox|node_modules\/typebox\/build\/(compile|value)\//.test(url))).toEqual(
        [],
      );
    },
  );

  it('loadOnce shares one load between concurrent callers and keeps it', async () => {
    let loads = 0;
    let finish: (value: string) => void = () => {};
    const get = loadOnce(() => {
      loads++;
      return new Promise<string>((resolve) => (finish = resolve));
    });
    const first = Promise.all([get(), get(), get()]);
    finish('modules');
    expect(await first).toEqual(['modules', 'modules', 'modules']);
    expect(await get()).toBe('modules');
    expect(loads).toBe(1);
  });

  it('loadOnce fails the callers of a failed load, and the next caller loads again', async () => {
    let loads = 0;
    const get = loadOnce(async () => {
      loads++;
      if (loads === 1) throw new Error('disk hiccup');
      return 'modules';
    });
    const failed = await Promise.allSettled([get(), get()]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await get()).toBe('modules');
    expect(await get()).toBe('modules');
    expect(loads).toBe(2);
  });
});
