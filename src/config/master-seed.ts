// MASTER_SEED or MASTER_SEED_FILE: the schema checks MASTER_SEED's shape; one of the two, and the
// file's content, are checked here. No message quotes a seed.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import { SEED_HEX, type ConfigEnv } from './schema.js';

const SEED_HEX_SHAPE = new RegExp(SEED_HEX);
/** A seed file is a line of hex; anything much larger is not one, and is not read whole. */
const SEED_FILE_MAX_BYTES = 1024;

/** MASTER_SEED, or the content of MASTER_SEED_FILE (32 bytes of hex, optional 0x, surrounding whitespace allowed). */
export function masterSeed(env: Pick<ConfigEnv, 'MASTER_SEED' | 'MASTER_SEED_FILE'>): string | undefined {
  if (env.MASTER_SEED !== undefined && env.MASTER_SEED_FILE !== undefined)
    throw new ConfigError('MASTER_SEED and MASTER_SEED_FILE are both set; set one of them');
  if (env.MASTER_SEED_FILE === undefined) return env.MASTER_SEED;
  const resolved = path.resolve(env.MASTER_SEED_FILE);
  const text = readSeedFile(resolved);
  if (!SEED_HEX_SHAPE.test(text))
    throw new ConfigError(`MASTER_SEED_FILE ${resolved} must hold 32 bytes of hex (64 hex digits, optional 0x)`);
  return text;
}

function readSeedFile(resolved: string): string {
  try {
    const stat = fs.statSync(resolved);
    if (!stat.isFile()) throw new ConfigError(`MASTER_SEED_FILE ${resolved} is not a file`);
    if (stat.size > SEED_FILE_MAX_BYTES)
      throw new ConfigError(`MASTER_SEED_FILE ${resolved} must hold 32 bytes of hex (64 hex digits); it is ${stat.size} bytes long`);
    return fs.readFileSync(resolved, 'utf8').trim();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT'
        ? `MASTER_SEED_FILE ${resolved} does not exist`
        : `MASTER_SEED_FILE ${resolved} cannot be read (${code ?? 'error'})`,
    );
  }
}
