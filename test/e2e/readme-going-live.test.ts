// The README's "Going live" block, as an operator would paste it: bash must read it without an
// error (no `<placeholder>` read as a redirection), it must hand `npm start`'s command every setting
// live mode requires, the text must say which values are the operator's to fill in, and, filled in
// (by stand-ins on this machine: a closed port for the database and the node, a seed file), the
// compiled service must get past its configuration to the database, which, not answering, is one
// line and a non-zero exit.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ensureBuilt, plainEnv, repoRoot } from '../helpers/built-service.js';
import { freePort } from '../helpers/free-port.js';

const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
/** What `npm start` runs: node with its flags and dist/main.js (decision 0068). */
const startCommand: string = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts.start;

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no "${heading}"`);
  const next = markdown.indexOf('\n## ', start + heading.length + 2);
  return markdown.slice(start, next === -1 ? undefined : next);
}

const goingLive = section(readme, '## Going live');
const blocks = [...goingLive.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
const block = blocks[0] ?? '';
/** The names the block assigns, in order. */
const assigned = [...block.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=/g)].map((match) => match[1]!);

/** What live mode says it requires, read from its own refusal of an empty environment. */
function liveRequirements(): string[][] {
  try {
    loadConfig({ PEERPAY_MODE: 'live' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const listed = /requires (.*) \(not set\)/.exec(error.message)?.[1];
    if (listed) return listed.split(', ').map((item) => item.split(' or '));
  }
  throw new Error('live mode started without any setting');
}

async function bash(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd: repoRoot, env: plainEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** The block with `NAME=value` replaced for each name given; each must be assigned exactly once. */
function filledIn(values: Record<string, string>): string {
  let text = block;
  for (const [name, value] of Object.entries(values)) {
    const pattern = new RegExp(`(^|\\s)${name}=\\S+`, 'g');
    expect(text.match(pattern), `${name} is assigned once`).toHaveLength(1);
    text = text.replace(pattern, (_match, before: string) => `${before}${name}=${value}`);
  }
  return text;
}

describe('the README "Going live" block', () => {
  it('is one block that starts the compiled service', () => {
    expect(blocks).toHaveLength(1);
    expect(block.trimEnd().split('\n').at(-1)).toBe(startCommand);
    // Pasted into zsh, a comment is a command or an argument: the block has none.
    expect(block).not.toMatch(/(^|\s)#/m);
  });

  it('pastes into bash without a shell error and hands node every setting live mode requires', async () => {
    // A stand-in for node that prints its arguments and the environment it was given.
    const { code, stdout, stderr } = await bash(`node() { printf 'arg %s\\n' "$@"; env; }\n${block}`, {});
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const args = startCommand.split(' ').slice(1);
    expect(stdout).toContain(args.map((arg) => `arg ${arg}\n`).join(''));
    const given = new Map(
      stdout
        .split('\n')
        .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
    );
    expect(given.get('PEERPAY_MODE')).toBe('live');
    for (const names of liveRequirements())
      expect(
        names.some((name) => (given.get(name) ?? '') !== ''),
        `${names.join(' or ')} is set`,
      ).toBe(true);
    expect(given.get('USDC_ADDRESS')).toBe('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359');
  });

  it('names, in its text, every value it assigns', () => {
    const prose = goingLive.slice(goingLive.indexOf('```', goingLive.indexOf('```sh') + 5));
    expect(assigned.length).toBeGreaterThanOrEqual(10);
    for (const name of new Set(assigned)) if (name !== 'PEERPAY_MODE') expect(prose, name).toContain(`\`${name}\``);
  });

  describe('filled in, with a database that does not answer', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'peerpay-going-live-'));
    const seedFile = path.join(dir, 'master-seed');

    beforeAll(async () => {
      fs.writeFileSync(seedFile, `${'5e'.repeat(32)}\n`, { mode: 0o600 });
      await ensureBuilt();
    }, 180_000);
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('gets past its configuration to the database, and says in one line that it cannot reach it', async () => {
      const [database, node] = [await freePort(), await freePort()];
      const script = filledIn({
        DATABASE_URL: `postgres://peerpay:a-db-password@127.0.0.1:${database}/peerpay`,
        CHAIN_RPC_URL: `http://127.0.0.1:${node}/`,
        EURC_ADDRESS: '0x00000000000000000000000000000000000e0bc0',
        MASTER_SEED_FILE: seedFile,
      });
      // PORT=0: the block sets no port, and 3000 may be taken on this machine.
      const { code, stdout, stderr } = await bash(script, { PORT: '0' });
      expect(stderr).toBe(`peerpay: cannot reach the database at 127.0.0.1:${database}: connect ECONNREFUSED 127.0.0.1:${database}\n`);
      expect(code).not.toBe(0);
      expect(stdout).toBe('');
    }, 90_000);
  });
});
