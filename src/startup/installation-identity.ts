// The database, the master seed and the chain belong together (DESIGN §15). The database records,
// once, the seed's fingerprint (sha256 of the hot wallet's address derived from it: the seed itself
// never leaves the wallet provider), the chain's id and the hash of the chain's block 1 (not of block
// 0: anvil makes a new genesis block each time it loads its saved state, while the blocks after it
// are kept; peerpay's chains always have a block 1, the embedded one deploys its tokens there). Every
// start compares them before anything is written, and stops with a message that names which of the
// three does not belong:
// - another seed on this database would hand old users' deposit addresses to nobody and derive new
//   ones the books know nothing about;
// - another (or a wiped) chain leaves the books' balances with nothing behind them;
// - a new database with a seed already used on this chain would re-issue the old users' deposit
//   addresses (account ids start again at 1) to new users (what shows that use: seed-use.ts).
// A database whose accounts exist but that has no identity recorded (one made before this check)
// never adopts the current seed on trust: the seed must derive the deposit addresses the database
// already handed out, and the chain must hold the blocks of the deposits it already credited.
import { createHash } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import type { Db } from '../db/database.js';
import type { ChainConnection } from '../adapters/chain/connect-chain.js';
import type { SelfWalletProvider } from '../adapters/wallet/wallet-provider.js';
import { findSeedUse } from './seed-use.js';

/** A start whose seed, chain or database does not match the others; main.ts prints it as one line. */
export class InstallationMismatchError extends Error {
  override name = 'InstallationMismatchError';
  constructor(
    readonly mismatch: 'master_seed' | 'chain' | 'database',
    message: string,
  ) {
    super(message);
  }
}

export interface InstallationIdentity {
  seedFingerprint: string;
  chainId: number;
  chainBlock1Hash: string;
}

export function seedFingerprint(hotWallet: Address): string {
  return createHash('sha256').update(getAddress(hotWallet).toLowerCase()).digest('hex');
}

export interface IdentityDeps {
  db: Db;
  chain: Pick<ChainConnection, 'chain' | 'tokens'>;
  /** The seed's wallets (self), or with circle only the seed's address: Circle holds the users' wallets. */
  wallets: Pick<SelfWalletProvider, 'provider' | 'seedAddress' | 'walletFor' | 'hotWallet'> | { provider: 'circle'; seedAddress: Address };
}

/**
 * The seed's half of the check, which needs no chain: run before the chain is connected, because
 * the embedded chain's sandbox tokens belong to a key derived from the seed, and connecting with
 * another seed would fail there first with a message about tokens instead of about the seed.
 */
export async function checkSeedIdentity(deps: Pick<IdentityDeps, 'db' | 'wallets'>): Promise<void> {
  const fingerprint = seedFingerprint(deps.wallets.seedAddress);
  const recorded = await readRecorded(deps.db);
  if (recorded) compareSeed(recorded.seedFingerprint, fingerprint);
  else if (await hasAccounts(deps.db)) await proveLegacySeed(deps, fingerprint);
}

/** Throws InstallationMismatchError, having written nothing, unless seed, chain and database belong together; records the identity on first start. */
export async function checkInstallationIdentity(deps: IdentityDeps): Promise<InstallationIdentity> {
  await checkWalletProvider(deps.db, deps.wallets.provider);
  const current = await currentIdentity(deps);
  const recorded = await readRecorded(deps.db);
  if (recorded) {
    compare(recorded, current);
    return recorded;
  }
  if (await hasAccounts(deps.db)) {
    await proveLegacySeed(deps, current.seedFingerprint);
    await proveLegacyChain(deps);
  } else await refuseUsedSeed(deps);
  await deps.db
    .insertInto('installation_identity')
    .values({
      id: 1,
      seed_fingerprint: current.seedFingerprint,
      chain_id: current.chainId,
      chain_block1_hash: current.chainBlock1Hash,
      recorded_at: new Date(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  // Two processes starting at once on a new database: whichever recorded first, both must agree.
  const stored = await readRecorded(deps.db);
  if (!stored) throw new Error('the installation identity was not recorded');
  compare(stored, current);
  return stored;
}

async function currentIdentity(deps: IdentityDeps): Promise<InstallationIdentity> {
  const chain = deps.chain.chain;
  const [chainId, block1] = await Promise.all([chain.getChainId(), chain.getBlock(1n)]);
  if (!block1) throw new InstallationMismatchError('chain', 'the chain has no block 1 yet to identify it by');
  return { seedFingerprint: seedFingerprint(deps.wallets.seedAddress), chainId, chainBlock1Hash: block1.hash.toLowerCase() };
}

async function readRecorded(db: Db): Promise<InstallationIdentity | null> {
  const row = await db
    .selectFrom('installation_identity')
    .select(['seed_fingerprint', 'chain_id', 'chain_block1_hash'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row ? { seedFingerprint: row.seed_fingerprint, chainId: row.chain_id, chainBlock1Hash: row.chain_block1_hash } : null;
}

function compareSeed(recorded: string, current: string): void {
  if (recorded !== current) {
    throw new InstallationMismatchError(
      'master_seed',
      `the master seed does not belong to this database: it was set up with another seed (fingerprint ${recorded.slice(0, 12)}…, this one ${current.slice(0, 12)}…); start with the seed (MASTER_SEED, MASTER_SEED_FILE or DATA_DIR/master-seed) this database was created with`,
    );
  }
}

function compare(recorded: InstallationIdentity, current: InstallationIdentity): void {
  compareSeed(recorded.seedFingerprint, current.seedFingerprint);
  if (recorded.chainId !== current.chainId) {
    throw new InstallationMismatchError(
      'chain',
      `the chain does not belong to this database: it was set up on chain id ${recorded.chainId}, this node is on ${current.chainId}`,
    );
  }
  if (recorded.chainBlock1Hash !== current.chainBlock1Hash) {
    throw new InstallationMismatchError(
      'chain',
      `the chain does not belong to this database: its block 1 is ${current.chainBlock1Hash}, the database was set up on a chain whose block 1 is ${recorded.chainBlock1Hash} (a wiped or different chain would leave the balances with nothing behind them)`,
    );
  }
}

async function hasAccounts(db: Db): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** A database made before identities were recorded: the seed must derive the deposit addresses it handed out. */
async function proveLegacySeed(deps: Pick<IdentityDeps, 'db' | 'wallets'>, fingerprint: string): Promise<void> {
  const handedOut = await deps.db
    .selectFrom('accounts')
    .select(['id', 'deposit_address'])
    .where('deposit_address', 'is not', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  // With circle the deposit addresses are Circle's wallets, not the seed's: there is nothing to derive.
  if (deps.wallets.provider !== 'self') return;
  if (!handedOut || deps.wallets.walletFor(handedOut.id).address.toLowerCase() !== handedOut.deposit_address!.toLowerCase()) {
    throw new InstallationMismatchError(
      'master_seed',
      `the master seed does not belong to this database: the database has accounts but no recorded seed, and this seed (fingerprint ${fingerprint.slice(0, 12)}…) does not derive the deposit addresses it handed out`,
    );
  }
}

/** And the chain must hold the block of the newest deposit it credited. */
async function proveLegacyChain(deps: IdentityDeps): Promise<void> {
  const deposit = await deps.db
    .selectFrom('chain_deposits')
    .select(['block_number', 'block_hash'])
    .orderBy('block_number', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (deposit) {
    const block = await deps.chain.chain.getBlock(deposit.block_number);
    if (!block || block.hash.toLowerCase() !== deposit.block_hash.toLowerCase()) {
      throw new InstallationMismatchError(
        'chain',
        `the chain does not belong to this database: it does not hold block ${deposit.block_number} (${deposit.block_hash}) of a deposit the database credited`,
      );
    }
  }
}

/** A new database: the seed must not have been used on this chain already (by a database now gone). */
async function refuseUsedSeed(deps: IdentityDeps): Promise<void> {
  // With circle the seed derives no deposit address (Circle makes the wallets) and sends nothing
  // but x402 relays: there is no address of its that a new database could hand out twice.
  if (deps.wallets.provider !== 'self') return;
  const evidence = await findSeedUse({ chain: deps.chain, wallets: deps.wallets });
  if (evidence !== null) {
    throw new InstallationMismatchError(
      'database',
      `the database does not belong to this seed and chain: it is new, but the master seed was used on this chain before (${evidence}), so it would hand out deposit addresses already used; start with the database that belongs to them (a restored backup starts), or with another seed`,
    );
  }
}

/**
 * The wallets of a database belong to one provider: users' deposit addresses derived from the seed
 * (self, wallet ids `wal_…`) or Circle's wallets (circle, the circle_custody row). Started with the
 * other, peerpay would sweep and credit addresses it cannot move, so the start is refused.
 */
async function checkWalletProvider(db: Db, provider: 'self' | 'circle'): Promise<void> {
  if (provider === 'circle') {
    const derived = await db.selectFrom('accounts').select('id').where('wallet_id', 'like', 'wal\\_%').limit(1).executeTakeFirst();
    if (derived)
      throw new InstallationMismatchError(
        'database',
        "WALLET_PROVIDER=circle, but this database's users have wallets derived from the master seed: start it with WALLET_PROVIDER=self",
      );
  } else if (await db.selectFrom('circle_custody').select('id').executeTakeFirst()) {
    throw new InstallationMismatchError(
      'database',
      "WALLET_PROVIDER=self, but this database's wallets are Circle's (it was set up with WALLET_PROVIDER=circle): start it with WALLET_PROVIDER=circle",
    );
  }
}
