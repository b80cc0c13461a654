// Helpers for fiat-rail tests: drive the sandbox setup pages, send transfers, read balances, and
// snapshot what money-moving tables hold so that a test can show a refused request changed nothing.
import { sql } from 'kysely';
import type { SendTransferInput } from '../../src/fiat/fiat-transfer-service.js';
import { registerUser, type TestResponse, type TestServer, type TestUser } from './test-server.js';

export type SetupEndpoint = '/agent/setup-link' | '/agent/bank-debit-link' | '/agent/connect-link';

/** The path of a link URL: tests talk to the server's real port, whatever PUBLIC_URL says. */
export function linkPath(url: string): string {
  return new URL(url).pathname;
}

/** Submits a sandbox setup page as its buttons do (form-encoded `outcome`). */
export async function submitLink(
  server: TestServer,
  url: string,
  outcome?: string,
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(server.url + linkPath(url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: outcome === undefined ? '' : new URLSearchParams({ outcome }).toString(),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export async function newLink(
  server: TestServer,
  user: TestUser,
  endpoint: SetupEndpoint,
): Promise<{ url: string; expiresIn: string; expiresAt: string }> {
  const response = await server.request('POST', endpoint, { key: user.key });
  if (response.status !== 200) throw new Error(`${endpoint}: ${response.status} ${response.text}`);
  return response.body;
}

/** Gets a link and completes it with `outcome`. */
export async function setUp(server: TestServer, user: TestUser, endpoint: SetupEndpoint, outcome = 'succeed'): Promise<void> {
  const link = await newLink(server, user, endpoint);
  const done = await submitLink(server, link.url, outcome);
  if (done.status !== 200) throw new Error(`completing ${endpoint} link: ${done.status}`);
}

/** A new user with a sandbox card that succeeds, and its account id (for tests below the HTTP layer). */
export async function cardSender(server: TestServer): Promise<{ user: TestUser; id: number }> {
  const user = await registerUser(server);
  await setUp(server, user, '/agent/setup-link');
  const row = await server.deps.db.selectFrom('accounts').select('id').where('handle', '=', user.handle).executeTakeFirstOrThrow();
  return { user, id: row.id };
}

/** What the fiat transfers service is asked for a USD card transfer from `from` to `to`. */
export function cardSendInput(
  from: { user: TestUser; id: number },
  to: TestUser,
  amount: number,
  idempotencyKey: string | null,
): SendTransferInput {
  return {
    senderAccountId: from.id,
    senderHandle: from.user.handle,
    recipientHandle: to.handle,
    amount,
    currency: 'USD',
    paymentMethod: 'instant',
    idempotencyKey,
  };
}

export interface SendBody {
  recipientHandle?: unknown;
  amount?: unknown;
  currency?: unknown;
  paymentMethod?: unknown;
  note?: unknown;
  [field: string]: unknown;
}

export function send(server: TestServer, sender: TestUser, body: SendBody, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.request('POST', '/transfers', { key: sender.key, body, headers });
}

/** GET /balance as a map: currency → {available, pending}. */
export async function balances(server: TestServer, user: TestUser): Promise<Record<string, { available: string; pending: string }>> {
  const response = await server.request('GET', '/balance', { key: user.key });
  if (response.status !== 200) throw new Error(`GET /balance: ${response.status} ${response.text}`);
  const out: Record<string, { available: string; pending: string }> = {};
  for (const b of response.body.balances) out[b.currency] = { available: b.available, pending: b.pending };
  return out;
}

export async function advanceDays(server: TestServer, days: number): Promise<string> {
  const response = await server.request('POST', '/test-helpers/clock/advance', { body: { days } });
  if (response.status !== 200) throw new Error(`clock advance: ${response.status} ${response.text}`);
  return response.body.now;
}

/** Everything a money movement would change: ledger rows and balances, transfers, charges, payouts. */
export async function moneySnapshot(server: TestServer): Promise<string> {
  const db = server.deps.db;
  const ledger = await sql<{
    n: string;
    total: string | null;
  }>`select count(*)::text as n, sum(amount)::text as total from ledger_transfers`.execute(db);
  const accounts = await sql<{ code: string; balance: string; pd: string; pc: string }>`
    select code, balance::text, pending_debits::text as pd, pending_credits::text as pc from ledger_accounts order by code`.execute(db);
  const transfers = await sql<{ n: string }>`select count(*)::text as n from fiat_transfers`.execute(db);
  const charges = await sql<{ n: string }>`select count(*)::text as n from sandbox_charges`.execute(db);
  const payouts = await sql<{ n: string }>`select count(*)::text as n from payouts`.execute(db);
  return JSON.stringify({
    ledger: ledger.rows,
    accounts: accounts.rows,
    transfers: transfers.rows,
    charges: charges.rows,
    payouts: payouts.rows,
  });
}

/** Card charges, bank debits and payouts the sandbox processor made for these idempotency keys. */
export async function chargesFor(server: TestServer, idempotencyKeys: string[]): Promise<number> {
  if (idempotencyKeys.length === 0) return 0;
  const rows = await server.deps.db.selectFrom('sandbox_charges').select('ref').where('idempotency_key', 'in', idempotencyKeys).execute();
  return rows.length;
}
