// A file that holds one 32-byte hex secret (MASTER_SEED_FILE, CIRCLE_ENTITY_SECRET_FILE,
// FACILITATOR_KEY_FILE): read, bounded and checked here. No message quotes the file's content.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.js';
import { SEED_HEX } from './schema.js';

const HEX_32_SHAPE = new RegExp(SEED_HEX);
/** Such a file is a line of hex; anything much larger is not one, and is not read whole. */
const SECRET_FILE_MAX_BYTES = 1024;

/** The file's 32 bytes of hex (optional 0x, surrounding whitespace allowed); `what` names it in the shape refusal's place. */
export function readSecretFile(variable: string, file: string, what = '32 bytes of hex'): string {
  const resolved = path.resolve(file);
  const text = readBounded(variable, resolved);
  if (!HEX_32_SHAPE.test(text))
    throw new ConfigError(
      `${variable} ${resolved} must hold ${what === '32 bytes of hex' ? what : `${what}: 32 bytes of hex`} (64 hex digits, optional 0x)`,
    );
  return text;
}

function readBounded(variable: string, resolved: string): string {
  try {
    const stat = fs.statSync(resolved);
    if (!stat.isFile()) throw new ConfigError(`${variable} ${resolved} is not a file`);
    if (stat.size > SECRET_FILE_MAX_BYTES)
      throw new ConfigError(`${variable} ${resolved} must hold 32 bytes of hex (64 hex digits); it is ${stat.size} bytes long`);
    return fs.readFileSync(resolved, 'utf8').trim();
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      code === 'ENOENT' ? `${variable} ${resolved} does not exist` : `${variable} ${resolved} cannot be read (${code ?? 'error'})`,
    );
  }
}
