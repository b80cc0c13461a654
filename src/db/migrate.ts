// One set of migrations for both PostgreSQL and PGlite, listed explicitly so that the order is
// visible in one place and bundlers or loaders cannot miss a file.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001-accounts.js';
import * as m0002 from './migrations/0002-ledger.js';
import * as m0003 from './migrations/0003-idempotency.js';
import * as m0004 from './migrations/0004-fiat.js';
import * as m0005 from './migrations/0005-fiat-work.js';
import * as m0006 from './migrations/0006-stablecoin-transfers.js';
import * as m0007 from './migrations/0007-deposits.js';
import * as m0008 from './migrations/0008-outbox-withdrawals.js';
import * as m0009 from './migrations/0009-x402.js';
import * as m0010 from './migrations/0010-live-processor.js';
import * as m0011 from './migrations/0011-ledger-guards.js';
import * as m0012 from './migrations/0012-mcp-confirmations.js';
import * as m0013 from './migrations/0013-events-webhooks.js';
import * as m0014 from './migrations/0014-treasury.js';
import * as m0015 from './migrations/0015-ledger-foreign-keys.js';
import * as m0016 from './migrations/0016-idempotency-keys-fillfactor.js';
import * as m0017 from './migrations/0017-lookup-functions.js';
import * as m0018 from './migrations/0018-cold-outflows.js';
import * as m0019 from './migrations/0019-card-risk.js';
import * as m0020 from './migrations/0020-custody-failing-since.js';
import * as m0021 from './migrations/0021-payout-reversals.js';
import * as m0022 from './migrations/0022-audit-log.js';
import * as m0023 from './migrations/0023-operators.js';
import * as m0024 from './migrations/0024-account-freezes.js';
import * as m0025 from './migrations/0025-account-limits.js';
import * as m0026 from './migrations/0026-blocked-deposits.js';
import * as m0027 from './migrations/0027-events-commit-order.js';
import * as m0028 from './migrations/0028-console-sessions.js';
import * as m0029 from './migrations/0029-snapshots.js';
import * as m0030 from './migrations/0030-console-reads.js';
import * as m0032 from './migrations/0032-circle-custody.js';
import * as m0033 from './migrations/0033-circle-deposits.js';
import * as m0034 from './migrations/0034-account-references-without-triggers.js';
import * as m0035 from './migrations/0035-circle-gas.js';
import * as m0037 from './migrations/0037-key-freezes.js';
import * as m0038 from './migrations/0038-hot-writes.js';
import * as m0039 from './migrations/0039-idempotency-keys-without-account-trigger.js';

const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-ledger': m0002,
  '0003-idempotency': m0003,
  '0004-fiat': m0004,
  '0005-fiat-work': m0005,
  '0006-stablecoin-transfers': m0006,
  '0007-deposits': m0007,
  '0008-outbox-withdrawals': m0008,
  '0009-x402': m0009,
  '0010-live-processor': m0010,
  '0011-ledger-guards': m0011,
  '0012-mcp-confirmations': m0012,
  '0013-events-webhooks': m0013,
  '0014-treasury': m0014,
  '0015-ledger-foreign-keys': m0015,
  '0016-idempotency-keys-fillfactor': m0016,
  '0017-lookup-functions': m0017,
  '0018-cold-outflows': m0018,
  '0019-card-risk': m0019,
  '0020-custody-failing-since': m0020,
  '0021-payout-reversals': m0021,
  '0022-audit-log': m0022,
  '0023-operators': m0023,
  '0024-account-freezes': m0024,
  '0025-account-limits': m0025,
  '0026-blocked-deposits': m0026,
  '0027-events-commit-order': m0027,
  '0028-console-sessions': m0028,
  '0029-snapshots': m0029,
  '0030-console-reads': m0030,
  '0032-circle-custody': m0032,
  '0033-circle-deposits': m0033,
  '0034-account-references-without-triggers': m0034,
  '0035-circle-gas': m0035,
  '0037-key-freezes': m0037,
  '0038-hot-writes': m0038,
  '0039-idempotency-keys-without-account-trigger': m0039,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// Migrations run before the schema they create exists, so they see the database untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
