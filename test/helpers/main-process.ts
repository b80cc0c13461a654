// The compiled service (`node dist/main.js`, what `npm start` runs less its node flags, which change
// no behaviour: decision 0068; built once per run by the global set-up) as a child process with the
// environment a test gives it, for tests of what the process itself does at start: its exit code,
// its output, what it leaves in DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { distMain } from './built-service.js';

export interface MainProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Polls GET /health until it answers 200; throws when the process exits first or time runs out. */
  healthy(baseUrl: string, timeoutMs?: number): Promise<void>;
  /** SIGTERM and the exit code. */
  stop(): Promise<number | null>;
}

export function spawnMain(env: Record<string, string | undefined>): MainProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PEERPAY_MODE: 'sandbox', LOG_LEVEL: 'warn', PASSWORD_HASH_COST_LOG2: '12', ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const child = spawn(process.execPath, [distMain], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async healthy(baseUrl, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`peerpay exited at start (${child.exitCode}): ${output.slice(-4000)}`);
        try {
          if ((await fetch(`${baseUrl}/health`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      child.kill('SIGKILL');
      throw new Error(`peerpay did not start: ${output.slice(-4000)}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
