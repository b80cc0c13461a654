// peerpay runs with node flags of its own (decision 0068: V8's young generation kept small, about
// 20 MB less resident at idle). Every way it is started must pass them: `npm start`, the systemd
// unit, the README's commands for running it under a service manager, and the bench's idle RSS
// figure, which measures what `npm start` runs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFlags } from '../../bench/idle-rss.js';
import { repoRoot } from '../helpers/built-service.js';

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');
const startCommand: string = JSON.parse(read('package.json')).scripts.start;

describe('the command that starts peerpay', () => {
  it('is node with the young generation capped, then dist/main.js', () => {
    expect(startCommand).toBe('node --max-semi-space-size=4 dist/main.js');
    expect(startFlags(repoRoot)).toEqual(['--max-semi-space-size=4']);
  });

  it('is the systemd unit’s, with node’s full path', () => {
    const execStart = read('deploy/systemd/peerpay@.service')
      .split('\n')
      .filter((line) => line.startsWith('ExecStart='));
    expect(execStart).toEqual([`ExecStart=/usr/bin/${startCommand}`]);
  });

  it('is every command the README gives for running the compiled service', () => {
    const readme = read('README.md');
    const commands = readme.match(/\bnode(?: --?[a-z-]+(?:=\S+)?)* dist\/main\.js/g) ?? [];
    expect(commands.length).toBeGreaterThanOrEqual(3);
    for (const command of commands) expect(command).toBe(startCommand);
  });
});
