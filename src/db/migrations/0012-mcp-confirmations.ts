import { sql, type Kysely } from 'kysely';

// The MCP server's two-step confirmations (DESIGN §12, src/mcp/): a send_money or withdraw call
// from a client without elicitation records the terms' hash here and answers a confirmationId
// (stored hashed); the second call claims it, once, within five minutes, for the same account and
// terms. In the database so that any process behind the load balancer can take the second call.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mcp_confirmations (
      id_hash text primary key,
      account_id integer not null references accounts(id),
      terms_hash text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index mcp_confirmations_expires on mcp_confirmations(expires_at)`.execute(db);
}
