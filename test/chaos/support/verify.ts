// The end checks of a chaos run, read straight from the database and the chain: each operation a
// client asked for exists exactly once, the ledger's invariants hold, every withdrawal reached the
// chain exactly once and for its net amount, and what the books say peerpay holds on chain is there.
import { sql } from 'kysely';
import { checkLedgerInvariants } from '../../../src/ledger/ledger-queries.js';
import type { Db } from '../../../src/db/database.js';
import { TOKENS } from '../../../src/money/assets.js';
import type { ChaosChain } from './chaos-chain.js';

export type OperationKind = 'stablecoin_transfer' | 'fiat_transfer' | 'withdrawal';

const TABLE: Record<OperationKind, 'stablecoin_transfers' | 'fiat_transfers' | 'withdrawals'> = {
  stablecoin_transfer: 'stablecoin_transfers',
  fiat_transfer: 'fiat_transfers',
  withdrawal: 'withdrawals',
};

export interface IntendedOperation {
  kind: OperationKind;
  idempotencyKey: string;
  /** The id the client was answered with (2xx), if any. */
  answeredId?: string;
}

/** Waits until no withdrawal is pending (the jobs of the surviving processes finish them). */
export async function waitForWithdrawals(db: Db, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await sql<{ n: string }>`select count(*)::text as n from withdrawals where status = 'pending'`.execute(db);
    if (row.rows[0]!.n === '0') return;
    if (Date.now() > deadline) {
      // What each stuck withdrawal waits on: its hot wallet transaction (if any) and that entry's lease.
      const stuck = await sql<Record<string, unknown>>`
        select w.id, w.created_at, o.status as outbox_status, o.nonce, o.locked_until, o.last_broadcast_at, o.last_error
          from withdrawals w left join hot_wallet_outbox o on o.purpose = 'withdrawal' and o.reference_id = w.id
         where w.status = 'pending'`.execute(db);
      throw new Error(
        `${row.rows[0]!.n} withdrawals still pending after ${timeoutMs} ms (at ${new Date().toISOString()}): ${JSON.stringify(stuck.rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function findViolations(
  db: Db,
  chain: ChaosChain,
  operations: IntendedOperation[],
  hotWalletBaseline: Record<string, bigint>,
): Promise<string[]> {
  const violations: string[] = [];
  for (const v of await checkLedgerInvariants(db)) violations.push(`ledger ${v.invariant}: ${v.detail}`);

  for (const kind of Object.keys(TABLE) as OperationKind[]) {
    const wanted = operations.filter((op) => op.kind === kind);
    const rows = await db.selectFrom(TABLE[kind]).select(['id', 'idempotency_key']).where('idempotency_key', 'is not', null).execute();
    const byKey = new Map<string, string[]>();
    for (const row of rows) byKey.set(row.idempotency_key!, [...(byKey.get(row.idempotency_key!) ?? []), row.id]);
    for (const op of wanted) {
      const ids = byKey.get(op.idempotencyKey) ?? [];
      if (ids.length !== 1) violations.push(`${kind} ${op.idempotencyKey}: ${ids.length} rows, expected exactly one`);
      else if (op.answeredId !== undefined && ids[0] !== op.answeredId)
        violations.push(`${kind} ${op.idempotencyKey}: answered ${op.answeredId}, stored ${ids[0]}`);
    }
    const known = new Set(wanted.map((op) => op.idempotencyKey));
    for (const key of byKey.keys()) if (!known.has(key)) violations.push(`${kind}: a row for key ${key} that no client sent`);
  }

  // Per destination (a retry after a refused withdrawal sends to the same address under a new id):
  // exactly one on-chain transfer per completed withdrawal, for its net amount, and none for failed ones.
  const withdrawals = await db.selectFrom('withdrawals').select(['id', 'address', 'currency', 'net', 'status']).execute();
  const destinations = new Map<string, { currency: 'USDC' | 'EURC'; address: string; count: number; net: bigint; ids: string[] }>();
  for (const w of withdrawals) {
    if (w.status === 'pending') violations.push(`withdrawal ${w.id} still pending`);
    const key = `${w.currency}:${w.address.toLowerCase()}`;
    const d = destinations.get(key) ?? { currency: w.currency, address: w.address, count: 0, net: 0n, ids: [] };
    d.ids.push(`${w.id} ${w.status}`);
    if (w.status === 'complete') {
      d.count++;
      d.net += w.net;
    }
    destinations.set(key, d);
  }
  for (const d of destinations.values()) {
    const sent = await chain.transfersTo(d.address, d.currency);
    const total = sent.reduce((sum, t) => sum + t.value, 0n);
    if (sent.length !== d.count || total !== d.net) {
      violations.push(
        `${d.address}: ${sent.length} transfers of ${total} on chain, the books say ${d.count} completed withdrawals of ${d.net} (${d.ids.join(', ')})`,
      );
    }
  }

  const addresses = await db.selectFrom('accounts').select('deposit_address').where('deposit_address', 'is not', null).execute();
  for (const token of TOKENS) {
    const custody = await db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('code', '=', `platform:chain_custody:${token}`)
      .executeTakeFirst();
    const booked = -(custody?.balance ?? 0n);
    let held = (await chain.balanceOf(chain.hotWallet, token)) - (hotWalletBaseline[token] ?? 0n);
    for (const a of addresses) held += await chain.balanceOf(a.deposit_address!, token);
    if (held !== booked) violations.push(`custody ${token}: the books hold ${booked}, the chain ${held}`);
  }
  return violations;
}
