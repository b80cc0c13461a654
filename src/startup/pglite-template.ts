// A first start's embedded database from a template. Creating a PGlite cluster (initdb inside
// WebAssembly) takes about 3.5 s on a 2-core machine; unpacking one made at install time takes
// about 1 s. `npm ci` (scripts/prepare.mjs) and `npm run build` write dist/pglite-template.tar.gz:
// an empty cluster with every migration of that build applied and nothing else (the migrations
// create tables and the sandbox clock's row; no secret, no identity: the master seed's fingerprint
// and the chain's are recorded at the first start, as without a template). A start whose
// DATA_DIR/pglite does not exist yet unpacks it there; newer migrations still run on top. Without
// the file (running the sources with tsx, or an install that could not make it) nothing changes.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { migrateToLatest } from '../db/migrate.js';
import { untarDataDir } from './untar-data-dir.js';

/** dist/pglite-template.tar.gz beside the compiled modules (src/ has none). */
export const PGLITE_TEMPLATE_FILE = fileURLToPath(new URL('../pglite-template.tar.gz', import.meta.url));

/** Unpacks the template into `pgliteDir` when that does not exist yet; says whether it did. */
export async function seedPgliteFromTemplate(pgliteDir: string, templateFile: string = PGLITE_TEMPLATE_FILE): Promise<boolean> {
  if (fs.existsSync(pgliteDir) || !fs.existsSync(templateFile)) return false;
  const partial = `${pgliteDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  // Unpacked here rather than through PGlite's loadDataDir: that needs a PGlite instance of its own,
  // whose WebAssembly memory stayed resident beside the service's after it was closed (decision 0058).
  untarDataDir(fs.readFileSync(templateFile), partial);
  // Only a whole cluster takes the name PGlite opens: a start stopped half-way leaves .partial.
  fs.renameSync(partial, pgliteDir);
  return true;
}

/** Makes the template: a new cluster, migrated, dumped as gzipped tar to `templateFile`. */
export async function writePgliteTemplate(templateFile: string = PGLITE_TEMPLATE_FILE): Promise<number> {
  const client = await PGlite.create('memory://');
  // Untyped: the template is made before the schema exists, by the migrations alone.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = new Kysely<any>({ dialect: new PGliteDialect(client) });
  try {
    await migrateToLatest(db);
    const dump = await client.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    fs.writeFileSync(`${templateFile}.tmp`, bytes);
    fs.renameSync(`${templateFile}.tmp`, templateFile);
    return bytes.length;
  } finally {
    await db.destroy();
  }
}
