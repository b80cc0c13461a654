// Where the CLI keeps the service URL and the API key: config.json in the user's config directory
// (PEERPAY_CONFIG_DIR, else $XDG_CONFIG_HOME/peerpay or ~/.config/peerpay; %APPDATA%\peerpay on
// Windows; ~/Library/Application Support/peerpay on macOS), the directory 0700, the file 0600.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface StoredConfig {
  url?: string;
  apiKey?: string;
  handle?: string;
  email?: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PEERPAY_CONFIG_DIR) return env.PEERPAY_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'peerpay');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'peerpay');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'peerpay');
}

export function configFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'config.json');
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): StoredConfig {
  try {
    return JSON.parse(fs.readFileSync(configFile(env), 'utf8')) as StoredConfig;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${configFile(env)}: ${(error as Error).message}`, { cause: error });
  }
}

/** Writes the whole file through a temporary one with mode 0600, renamed into place. */
export function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = configFile(env);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return file;
}
