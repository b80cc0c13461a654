// peerpay as a real process (`node dist/main.js`, what `npm start` runs less its node flags), which
// a chaos test can SIGKILL at any moment and start again on the same port, database and chain.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../helpers/free-port.js';
import { distMain } from '../../helpers/built-service.js';
import { generousLimitsFile } from '../../helpers/generous-limits.js';

export interface PeerpayProcess {
  readonly baseUrl: string;
  readonly name: string;
  /** Everything every incarnation wrote, stdout and stderr. */
  output(): string;
  isRunning(): boolean;
  start(): Promise<void>;
  /** SIGKILL: no shutdown hook runs, requests under way are cut off. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

export async function peerpayProcess(name: string, env: Record<string, string>): Promise<PeerpayProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `peerpay-chaos-${name}-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  // Outside DATA_DIR, which a test may wipe between starts.
  const limitsFile = generousLimitsFile(fs.mkdtempSync(path.join(os.tmpdir(), `peerpay-chaos-${name}-limits-`)));
  let child: ChildProcess | null = null;
  let output = '';

  const exited = (c: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      c.exitCode !== null || c.signalCode !== null ? resolve(c.exitCode) : c.once('exit', (code) => resolve(code)),
    );

  return {
    baseUrl,
    name,
    output: () => output,
    isRunning: () => child !== null && child.exitCode === null && child.signalCode === null,
    async start() {
      const childEnv: NodeJS.ProcessEnv = {
        ...process.env,
        PEERPAY_MODE: 'sandbox',
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        PASSWORD_HASH_COST_LOG2: '12',
        // Per-account limits far above what the load sends, as in the other suites: a new account's
        // tenth (1,000 a day) is reached by the fleet's random transfers. A test may name its own.
        LIMITS_FILE: limitsFile,
        ...env,
      };
      const c = spawn(process.execPath, [distMain], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      c.stdout.on('data', (chunk) => (output += chunk));
      c.stderr.on('data', (chunk) => (output += chunk));
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (c.exitCode !== null) throw new Error(`${name} exited at start (${c.exitCode}): ${output.slice(-4000)}`);
        try {
          if ((await fetch(`${baseUrl}/health`)).ok) return;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      c.kill('SIGKILL');
      throw new Error(`${name} did not start: ${output.slice(-4000)}`);
    },
    async kill() {
      if (!child) return;
      const c = child;
      c.kill('SIGKILL');
      await exited(c);
    },
    async stop() {
      if (!child) return null;
      const c = child;
      c.kill('SIGTERM');
      const code = await exited(c);
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
