// The master seed from which the HD wallet provider derives every key. In sandbox mode, when none
// is configured, one is generated into DATA_DIR with mode 0600 and reused on every start.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

const SEED_FILE = 'master-seed';

export function loadMasterSeed(options: { seedHex: string | undefined; dataDir: string }): Uint8Array {
  if (options.seedHex) return Buffer.from(options.seedHex.replace(/^0x/, ''), 'hex');
  const file = path.join(options.dataDir, SEED_FILE);
  fs.mkdirSync(options.dataDir, { recursive: true });
  try {
    // 'wx' fails if the file exists, so two processes starting at once cannot overwrite each other.
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${file} does not hold a 32-byte hex seed`);
  return Buffer.from(text, 'hex');
}
