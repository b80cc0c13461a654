// MASTER_SEED or MASTER_SEED_FILE: the schema checks MASTER_SEED's shape; one of the two, and the
// file's content (secret-file.ts), are checked here. No message quotes a seed.
import { ConfigError } from './config-error.js';
import { readSecretFile } from './secret-file.js';
import type { ConfigEnv } from './schema.js';

/** MASTER_SEED, or the content of MASTER_SEED_FILE (32 bytes of hex, optional 0x, surrounding whitespace allowed). */
export function masterSeed(env: Pick<ConfigEnv, 'MASTER_SEED' | 'MASTER_SEED_FILE'>): string | undefined {
  if (env.MASTER_SEED !== undefined && env.MASTER_SEED_FILE !== undefined)
    throw new ConfigError('MASTER_SEED and MASTER_SEED_FILE are both set; set one of them');
  if (env.MASTER_SEED_FILE === undefined) return env.MASTER_SEED;
  return readSecretFile('MASTER_SEED_FILE', env.MASTER_SEED_FILE);
}
