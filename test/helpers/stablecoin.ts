// Helpers for stablecoin-rail tests. Users are funded through the ledger directly (platform
// chain_custody → user available), as a confirmed deposit would credit them, so that these tests
// need no chain. Also: send transfers, read balances in minor units, and snapshot everything a
// stablecoin movement would change, so a test can show a refused request changed nothing.
import { sql } from 'kysely';
import { commitOperation } from './ledger.js';
import { platformAccount, userAvailable } from '../../src/ledger/ledger-accounts.js';
import { newId } from '../../src/platform/ids.js';
import type { Token } from '../../src/money/assets.js';
import type { TestResponse, TestServer, TestUser } from './test-server.js';

export async function accountIdOf(server: TestServer, user: TestUser): Promise<number> {
  const row = await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow();
  return row.id;
}

/** Credits `amountMinor` of `token` to the user, as a deposit would: chain custody → the user's available balance. */
export async function fund(server: TestServer, user: TestUser, amountMinor: bigint, token: Token = 'USDC'): Promise<void> {
  const owner = await accountIdOf(server, user);
  await commitOperation(server.deps.db, {
    operationId: newId('test-fund'),
    transfers: [
      {
        type: 'posted',
        debit: platformAccount('chain_custody', token),
        credit: userAvailable(owner, token),
        amountMinor,
        code: 'test_fund',
      },
    ],
  });
}

/** GET /stablecoin/balance, as the strings the API answers. */
export async function balanceOf(server: TestServer, user: TestUser): Promise<{ USDC: string; EURC: string }> {
  const response = await server.request('GET', '/stablecoin/balance', { key: user.key });
  if (response.status !== 200) throw new Error(`GET /stablecoin/balance: ${response.status} ${response.text}`);
  return response.body;
}

/** An exact 6-decimal balance string in minor units: "9.851000" → 9851000n. */
export function minorOf(decimal: string): bigint {
  const [whole = '0', fraction = ''] = decimal.split('.');
  if (fraction.length !== 6) throw new Error(`not a 6-decimal string: ${decimal}`);
  return BigInt(whole + fraction);
}

export function agentTransfer(
  server: TestServer,
  sender: TestUser,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return server.request('POST', '/agent/transfer', { key: sender.key, body, headers });
}

export function emailTransfer(
  server: TestServer,
  sender: TestUser,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return server.request('POST', '/stablecoin/transfer', { key: sender.key, body, headers });
}

/** Everything a stablecoin movement would change: ledger rows and balances, and transfer records. */
export async function stablecoinSnapshot(server: TestServer): Promise<string> {
  const db = server.deps.db;
  const ledger = await sql<{
    n: string;
    total: string | null;
  }>`select count(*)::text as n, sum(amount)::text as total from ledger_transfers`.execute(db);
  const accounts = await sql<{ code: string; balance: string; pd: string; pc: string }>`
    select code, balance::text, pending_debits::text as pd, pending_credits::text as pc from ledger_accounts order by code`.execute(db);
  const transfers = await sql<{ n: string }>`select count(*)::text as n from stablecoin_transfers`.execute(db);
  return JSON.stringify({ ledger: ledger.rows, accounts: accounts.rows, transfers: transfers.rows });
}

/** Sets the user's phone through the API. */
export async function setPhone(server: TestServer, user: TestUser, phone: string): Promise<void> {
  const response = await server.request('PATCH', '/account', { key: user.key, body: { phone } });
  if (response.status !== 200) throw new Error(`PATCH /account: ${response.status} ${response.text}`);
}
