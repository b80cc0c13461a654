// The checks `npm test` runs before the suite: ESLint, Prettier, the type checks of the service
// and of each package, and the boundary rule between src/'s folders. They are independent and
// each is single-threaded, so they run side by side, as many at a time as there are cores; each one's output is printed whole when it ends, and the
// exit code is 1 when any failed. `npm run lint` and `npm run typecheck` run the same commands one
// by one.
import { spawn } from 'node:child_process';
import os from 'node:os';

const CHECKS = [
  ['eslint', ['eslint', '--max-warnings', '0', '.']],
  ['typecheck', ['tsc', '--noEmit']],
  ['prettier', ['prettier', '--check', '--log-level', 'warn', '.']],
  ['typecheck client', ['tsc', '--noEmit', '-p', 'packages/client/tsconfig.json']],
  ['typecheck mcp', ['tsc', '--noEmit', '-p', 'packages/mcp/tsconfig.json']],
  ['typecheck cli', ['tsc', '--noEmit', '-p', 'packages/cli/tsconfig.json']],
  // DESIGN §21: imports go one way between the folders of src/ (.dependency-cruiser.cjs).
  ['boundaries', ['node', 'scripts/boundaries.mjs']],
];

function run([name, [command, ...args]]) {
  const started = Date.now();
  return new Promise((resolve) => {
    // npx resolves the binaries from node_modules/.bin; shell: true finds npx.cmd on Windows.
    const child = spawn('npx', ['--no-install', command, ...args], { shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => (output += `${error.message}\n`));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds} s)`);
      if (code !== 0 || output.trim() !== '') process.stdout.write(output.endsWith('\n') || output === '' ? output : `${output}\n`);
      resolve(code === 0);
    });
  });
}

const queue = [...CHECKS];
const results = [];
async function worker() {
  for (let check = queue.shift(); check; check = queue.shift()) results.push(await run(check));
}
const parallel = Math.max(1, Math.min(CHECKS.length, os.availableParallelism()));
await Promise.all(Array.from({ length: parallel }, worker));
if (results.includes(false)) {
  console.log('checks failed: `npm run format` fixes formatting and what ESLint can fix by itself');
  process.exit(1);
}
