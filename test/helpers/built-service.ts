// The compiled service in dist/, as `npm start` runs it. `npm ci` builds dist/ and its PGlite
// template (the prepare script); when a source file is newer than the build (an edit since), or
// either is missing, it is built again here first, once, under a lock that other test files wait
// for, so that no test runs an old build.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const distMain = path.join(repoRoot, 'dist', 'main.js');
const lockDir = path.join(repoRoot, 'node_modules', '.peerpay-dist-building');

function newestSourceMs(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMs(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function upToDate(): boolean {
  if (!fs.existsSync(distMain) || !fs.existsSync(path.join(repoRoot, 'dist', 'pglite-template.tar.gz'))) return false;
  const built = fs.statSync(distMain).mtimeMs;
  return newestSourceMs(path.join(repoRoot, 'src')) <= built && fs.statSync(path.join(repoRoot, 'tsconfig.build.json')).mtimeMs <= built;
}

/** Builds dist/ as `npm ci` does (scripts/prepare.mjs) unless it is newer than every source file. */
export async function ensureBuilt(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (upToDate()) return;
    try {
      fs.mkdirSync(lockDir);
    } catch {
      // Another test file is building; a lock older than the timeout was left by a killed run.
      if (Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })!.mtimeMs > timeoutMs)
        fs.rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('dist/ is being built by another process for too long');
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (upToDate()) return;
      const built = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: repoRoot, encoding: 'utf8', timeout: timeoutMs });
      if (built.status !== 0) throw new Error(`building dist/ failed: ${built.stdout}${built.stderr}`);
      // tsc keeps the mtime of an output whose text did not change; the build is as new as now.
      const now = new Date();
      fs.utimesSync(distMain, now, now);
      return;
    } finally {
      fs.rmSync(lockDir, { recursive: true, force: true });
    }
  }
}

// How this machine reaches the npm registry (a proxy, its certificate authority): a person's shell
// on it has these too, and the README's `npm install` needs them.
const NETWORK_SETTINGS =
  /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(HTTPS?|NO|ALL)_PROXY|npm_config_(registry|cafile|ca|proxy|https_proxy|noproxy|strict_ssl))$/i;

/** A small environment, as a person's shell has: PATH and HOME (when set), a locale, the network settings, plus `extra`. */
export function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { LANG: process.env.LANG || 'C.UTF-8' };
  if (process.env.PATH) env.PATH = process.env.PATH;
  if (process.env.HOME) env.HOME = process.env.HOME;
  for (const [name, value] of Object.entries(process.env)) if (NETWORK_SETTINGS.test(name) && value !== undefined) env[name] = value;
  return { ...env, ...extra };
}

/** `script` from util-linux runs a command under a pseudo-terminal, as a person's terminal would. */
export function hasScript(): boolean {
  return process.platform === 'linux' && spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** The frames of npm's progress spinner (its `dots`), drawn under a terminal when a script takes over 200 ms to start. */
const NPM_SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/g;

/**
 * Terminal output as text: no colour or cursor sequences, no carriage returns, and no frames of
 * npm's spinner, which npm draws until the script prints and which then sits in front of the
 * script's first line (on a busy machine, npm itself starts slowly enough to draw it).
 */
export function plainText(output: string): string {
  return (
    output
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/\r/g, '')
      .replace(NPM_SPINNER_FRAMES, '')
  );
}

export interface RunningService {
  /** Everything it printed so far (stdout and stderr; under a terminal, one stream). */
  output(): string;
  readonly exited: Promise<number | null>;
  /** Resolves with the URL it prints (the banner's URL line, or the listening log line's url). */
  url(timeoutMs?: number): Promise<string>;
  /** Ctrl+C under a terminal, SIGINT otherwise; then SIGKILL after `timeoutMs`. Resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * `npm start` in `cwd`'s package, under a pseudo-terminal when `terminal` (and `script` exists),
 * with exactly `env` added to a small base environment (PATH, HOME), as a person's shell would.
 */
export function npmStart(options: { env: Record<string, string>; terminal: boolean }): RunningService {
  const env = plainEnv({ TERM: 'xterm-256color', ...options.env });
  const child = options.terminal
    ? spawn('script', ['-qfec', 'npm start', '/dev/null'], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn('npm', ['start'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output: () => output,
    exited,
    async url(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const text = plainText(output);
        const banner = /^ {2}URL +(http:\/\/\S+)$/m.exec(text);
        if (banner) return banner[1]!;
        for (const line of text.split('\n')) {
          if (!line.startsWith('{')) continue;
          try {
            const record = JSON.parse(line) as { msg?: string; url?: string };
            if (record.msg === 'peerpay is listening' && record.url) return record.url;
          } catch {
            // not a log line
          }
        }
        if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}) before it printed its URL:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`npm start printed no URL within ${timeoutMs} ms:\n${plainText(output)}`);
    },
    async stop(timeoutMs = 20_000) {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.terminal) child.stdin!.write('\u0003');
        else process.kill(-child.pid!, 'SIGINT');
      }
      const timer = setTimeout(() => {
        if (options.terminal) child.kill('SIGKILL');
        else process.kill(-child.pid!, 'SIGKILL');
      }, timeoutMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
