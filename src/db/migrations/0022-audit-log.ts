import { sql, type Kysely } from 'kysely';

// The audit log (DESIGN §17): every operator write and every automatic control, one row each,
// written in the transaction of the change. It takes over operator_actions (the card-risk
// operator writes of migration 0019), rows included. Append-only at the database level: a trigger
// refuses UPDATE and DELETE, and TRUNCATE, whoever asks, so that an entry once committed stays as
// it was written.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table operator_actions rename to audit_log`.execute(db);
  await sql`create index audit_log_target on audit_log (target, id)`.execute(db);
  await sql`create index audit_log_operator on audit_log (operator, id)`.execute(db);
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`
    create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`.execute(db);
}
