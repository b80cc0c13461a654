// The type of a database transaction, which every repository and the ledger take. It lives beside
// the database's types, below everything that writes, so that no low module imports the ledger
// for a type.
import type { Transaction } from 'kysely';
import type { DB } from './schema.js';

export type Trx = Transaction<DB>;
