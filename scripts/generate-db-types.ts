// npm run generate:db-types: rewrites src/db/generated-types.ts from a database migrated for the
// purpose. With DATABASE_URL (a PostgreSQL server on which a database may be created, e.g.
// postgres://postgres@127.0.0.1:5432/postgres) a scratch database there, dropped afterwards;
// without it in-memory PGlite. Both give the same text (test/unit/db-types.test.ts checks each).
import path from 'node:path';
import { GENERATED_DB_TYPES, writeDbTypes } from './db-types.js';

await writeDbTypes({ outFile: GENERATED_DB_TYPES, adminUrl: process.env.DATABASE_URL });
console.log(`wrote ${path.relative(process.cwd(), GENERATED_DB_TYPES)}`);
