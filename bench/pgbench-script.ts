// The database ceiling's pgbench script, in its own module so that it can be printed and tried alone.
/** The pgbench script: what one stablecoin transfer does in SQL, between random seeded users 1..users. */
export function transferScript(users: number): string {
  // pgbench takes every ":word", even inside a string literal, for a variable: no colon in this
  // script's literals is followed by a letter.
  const code = (who: string) => `'user:' || CAST(:${who} AS int) || ':' || 'available:' || 'USDC'`;
  const fees = `'platform:' || 'fees:' || 'USDC'`;
  // Rows are locked in one order (lower account first), as peerpay locks in id order, so that
  // concurrent clients cannot deadlock; the debit keeps the no-overdraft condition.
  return `\\set s random(1, ${users})
\\set r 1 + (:s + random(0, ${users - 2})) % ${users}
\\set lo least(:s, :r)
\\set hi greatest(:s, :r)
\\set dlo case when :s < :r then -10000 else 9851 end
\\set dhi case when :s < :r then 9851 else -10000 end
BEGIN;
UPDATE ledger_accounts SET balance = balance + CAST(:dlo AS bigint) WHERE code = ${code('lo')} AND (allow_negative OR balance + CAST(:dlo AS bigint) - pending_debits >= 0);
UPDATE ledger_accounts SET balance = balance + CAST(:dhi AS bigint) WHERE code = ${code('hi')} AND (allow_negative OR balance + CAST(:dhi AS bigint) - pending_debits >= 0);
UPDATE ledger_accounts SET balance = balance + 149 WHERE code = ${fees};
INSERT INTO ledger_transfers (operation_id, kind, debit_account_id, credit_account_id, asset, amount, code)
  SELECT 'pgbench:' || md5(random()::text), 'posted', d.id, c.id, 'USDC', v.amount, v.code
    FROM (VALUES (${code('s')}, ${code('r')}, 9851::bigint, 'stablecoin_transfer'), (${code('s')}, ${fees}, 149::bigint, 'stablecoin_fee')) AS v(debit, credit, amount, code)
    JOIN ledger_accounts d ON d.code = v.debit JOIN ledger_accounts c ON c.code = v.credit;
INSERT INTO stablecoin_transfers (id, sender_account_id, recipient_account_id, currency, amount, fee, status, created_at)
  VALUES ('pgbench_' || md5(random()::text), CAST(:s AS int), CAST(:r AS int), 'USDC', 10000, 149, 'complete', now());
COMMIT;
`;
}

/** Accounts of the raw ceiling, each with this balance: enough that no transfer of the run is refused. */
const RAW_BALANCE = 1_000_000_000;

/**
 * The raw ceiling's tables, in the bench database beside peerpay's (and dropped with it): the
 * textbook schema, one row per account and one per transfer, nothing else.
 */
export function rawSetupSql(accounts: number): string {
  return `drop table if exists raw_transfers, raw_accounts;
create table raw_accounts (id integer primary key, balance bigint not null check (balance >= 0));
create table raw_transfers (id bigserial primary key, debit_id integer not null, credit_id integer not null, amount bigint not null, created_at timestamptz not null default now());
insert into raw_accounts (id, balance) select g, ${RAW_BALANCE} from generate_series(1, ${accounts}) g;
analyze raw_accounts;`;
}

/**
 * The raw ceiling's pgbench script: the textbook transfer between two random accounts of
 * 1..accounts, the two rows updated in id order (so that clients cannot deadlock) with the
 * no-overdraft condition on each, one transfer row inserted. No fee row, no ledger: what
 * PostgreSQL itself does per durable transfer on this machine when each is its own transaction.
 */
export function rawTransferScript(accounts: number): string {
  return `\\set s random(1, ${accounts})
\\set r 1 + (:s + random(0, ${accounts - 2})) % ${accounts}
\\set lo least(:s, :r)
\\set hi greatest(:s, :r)
\\set dlo case when :s < :r then -100 else 100 end
\\set dhi case when :s < :r then 100 else -100 end
BEGIN;
UPDATE raw_accounts SET balance = balance + :dlo WHERE id = :lo AND balance + :dlo >= 0;
UPDATE raw_accounts SET balance = balance + :dhi WHERE id = :hi AND balance + :dhi >= 0;
INSERT INTO raw_transfers (debit_id, credit_id, amount) VALUES (:s, :r, 100);
COMMIT;
`;
}
