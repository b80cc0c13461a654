// WALLET_PROVIDER=circle at start (DESIGN §19): the wallet set and the treasury wallet, each made
// once and recorded (table circle_custody, migration 0032), and the wallet provider built on them.
// Idempotent across a fleet: the wallet set's idempotency key is drawn once, by whichever process
// inserts the row first, so processes starting at once ask Circle for one set; the treasury's and
// every user's key is derived from the set and the refId, so asking again gives the same wallet.
import { createHash, randomUUID } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { CircleApi } from '../../adapters/circle/circle-port.js';
import { createHdWalletProvider, seedRelayer } from '../../adapters/wallet/hd-wallet-provider.js';
import type { CircleWalletProvider, Wallet } from '../../adapters/wallet/wallet-provider.js';
import type { CircleConfig } from '../../config/types.js';
import type { Db } from '../../db/database.js';

/** The refId of the treasury wallet; users' wallets carry their account id. */
export const TREASURY_REF_ID = 'treasury';
const WALLET_SET_NAME = 'peerpay';

/**
 * A UUID derived from its parts: SHA-256, shaped as a version 4 UUID because Circle takes only
 * those as idempotency keys (its bits are as unpredictable as a random one's to anyone without the parts).
 */
export function derivedUuid(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32).split('');
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The idempotency key of the wallet with this refId in this set: the same wallet however often it is asked for. */
export function walletIdempotencyKey(walletSetId: string, refId: string): string {
  return derivedUuid('peerpay circle wallet', walletSetId, refId);
}

export async function openCircleWallets(deps: {
  db: Db;
  api: CircleApi;
  circle: Pick<CircleConfig, 'walletSetId' | 'accountType' | 'facilitatorKeyHex'>;
  masterSeed: Uint8Array;
}): Promise<CircleWalletProvider> {
  const walletSetId = await walletSet(deps);
  const treasury = await treasuryWallet(deps, walletSetId);
  // The seed stays for what is derived from it (webhook and console secrets, the sandbox tokens'
  // owner, by default the x402 relay) and names the installation; it holds no user's key.
  const seed = createHdWalletProvider(deps.masterSeed);
  const relayer = deps.circle.facilitatorKeyHex
    ? privateKeyToAccount(`0x${deps.circle.facilitatorKeyHex.replace(/^0x/, '')}`)
    : seedRelayer(deps.masterSeed);
  return {
    provider: 'circle',
    circle: { api: deps.api, walletSetId, treasuryWalletId: treasury.walletId, accountType: deps.circle.accountType },
    async createWallet(accountId) {
      const refId = String(accountId);
      const made = await deps.api.createWallet({ walletSetId, refId, idempotencyKey: walletIdempotencyKey(walletSetId, refId) });
      return { walletId: made.id, address: getAddress(made.address) };
    },
    hotWallet: { address: treasury.address },
    relayer,
    seedAddress: seed.hotWallet.address,
    sandboxTokenOwner: seed.sandboxTokenOwner,
  };
}

/** The recorded wallet set; made (once across the fleet) when none is, or taken from CIRCLE_WALLET_SET_ID. */
async function walletSet(deps: Parameters<typeof openCircleWallets>[0]): Promise<string> {
  await deps.db
    .insertInto('circle_custody')
    .values({ id: 1, wallet_set_key: randomUUID(), wallet_set_id: deps.circle.walletSetId ?? null, created_at: new Date() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const row = await readCustody(deps.db);
  if (row.wallet_set_id !== null) {
    if (deps.circle.walletSetId !== undefined && deps.circle.walletSetId !== row.wallet_set_id)
      throw new Error(
        `CIRCLE_WALLET_SET_ID ${deps.circle.walletSetId} is not the wallet set this database records (${row.wallet_set_id}): its users' wallets are there`,
      );
    return row.wallet_set_id;
  }
  const made =
    deps.circle.walletSetId ?? (await deps.api.createWalletSet({ name: WALLET_SET_NAME, idempotencyKey: row.wallet_set_key })).id;
  await deps.db.updateTable('circle_custody').set({ wallet_set_id: made }).where('id', '=', 1).where('wallet_set_id', 'is', null).execute();
  const recorded = (await readCustody(deps.db)).wallet_set_id;
  if (recorded === null) throw new Error('the Circle wallet set was not recorded');
  return recorded;
}

/** The recorded treasury wallet; made (idempotently) when none is. */
async function treasuryWallet(deps: Parameters<typeof openCircleWallets>[0], walletSetId: string): Promise<Wallet> {
  const row = await readCustody(deps.db);
  if (row.treasury_wallet_id !== null && row.treasury_address !== null)
    return { walletId: row.treasury_wallet_id, address: getAddress(row.treasury_address) };
  const made = await deps.api.createWallet({
    walletSetId,
    refId: TREASURY_REF_ID,
    idempotencyKey: walletIdempotencyKey(walletSetId, TREASURY_REF_ID),
  });
  const address: Address = getAddress(made.address);
  await deps.db
    .updateTable('circle_custody')
    .set({ treasury_wallet_id: made.id, treasury_address: address })
    .where('id', '=', 1)
    .where('treasury_wallet_id', 'is', null)
    .execute();
  const recorded = await readCustody(deps.db);
  return { walletId: recorded.treasury_wallet_id!, address: getAddress(recorded.treasury_address!) };
}

async function readCustody(db: Db) {
  return db
    .selectFrom('circle_custody')
    .select(['wallet_set_key', 'wallet_set_id', 'treasury_wallet_id', 'treasury_address'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
}
