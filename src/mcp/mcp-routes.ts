// The MCP server at /mcp (Streamable HTTP, DESIGN §12), authenticated by the caller's API key like
// every other route. Sessions are kept (stateful mode): elicitation needs the client's answer, sent
// in a later POST, to reach the tool call still waiting in this process. A session belongs to the
// account that opened it; every request of it must carry a key of that account. The tools are the
// shared ones of @peerpay/mcp; their peerpay client calls this service in-process (app.inject)
// with the request's own key, and their confirmations are kept in the database. The SDK and the
// tools load on the first request to /mcp (mcp-modules.ts), not at start.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createPeerpayClient } from '@peerpay/client';
import type { ConfirmationStore } from '@peerpay/mcp';
import { callerOf } from '../http/plugins/auth.js';
import type { App } from '../http/types.js';
import { inProcessFetch, type Inject } from './in-process-fetch.js';
import { loadMcpModules } from './mcp-modules.js';

const MAX_SESSIONS = 1000;
const MAX_SESSIONS_PER_ACCOUNT = 20;
const IDLE_MS = 30 * 60_000;

interface Session {
  transport: StreamableHTTPServerTransport;
  accountId: number;
  lastSeenMs: number;
}

/** The open MCP sessions of this process: found by id, opened for an account, all closed at shutdown. */
type McpSessions = ReturnType<typeof mcpSessions>;

export async function mcpRoutes(app: App, confirmations: ConfirmationStore, inject: Inject): Promise<void> {
  const sessions = mcpSessions(confirmations, inject);
  const handle = mcpHandler(sessions);

  const route = { config: { auth: 'required' as const, idempotent: false }, schema: { hide: true } };
  app.post('/mcp', route, handle);
  app.get('/mcp', route, handle);
  app.delete('/mcp', route, handle);

  // Open streams would hold the server's close; end every session first.
  app.addHook('preClose', async () => {
    await sessions.closeAll();
  });
}

function mcpSessions(confirmations: ConfirmationStore, inject: Inject) {
  const sessions = new Map<string, Session>();
  const fetchInProcess = inProcessFetch(inject);

  const close = async (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    await session?.transport.close().catch(() => undefined);
  };

  /** Ends idle sessions, then the least recently used ones beyond the limits. */
  async function makeRoom(accountId: number): Promise<void> {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.lastSeenMs > IDLE_MS) await close(id);
    const byAge = [...sessions.entries()].sort(([, a], [, b]) => a.lastSeenMs - b.lastSeenMs);
    const own = byAge.filter(([, s]) => s.accountId === accountId);
    if (own.length >= MAX_SESSIONS_PER_ACCOUNT) await close(own[0]![0]);
    if (sessions.size >= MAX_SESSIONS) await close(byAge[0]![0]);
  }

  async function open(accountId: number): Promise<StreamableHTTPServerTransport> {
    await makeRoom(accountId);
    const { StreamableHTTPServerTransport, createPeerpayMcpServer } = await loadMcpModules();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, accountId, lastSeenMs: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = createPeerpayMcpServer({
      api: (extra) =>
        createPeerpayClient({ baseUrl: 'http://peerpay.internal', apiKey: extra.authInfo?.token, fetch: fetchInProcess, maxRetries: 0 }),
      confirmations,
      owner: () => String(accountId),
    });
    await server.connect(transport);
    return transport;
  }

  return {
    find: (id: string): Session | undefined => sessions.get(id),
    open,
    closeAll: async (): Promise<void> => {
      await Promise.all([...sessions.keys()].map(close));
    },
  };
}

function rpcError(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .type('application/json')
    .send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/** Handles POST, GET and DELETE /mcp: finds or opens the caller's session and lets its transport answer. */
function mcpHandler(sessions: McpSessions) {
  return async function handle(request: FastifyRequest, reply: FastifyReply) {
    const { accountId } = callerOf(request);
    const token = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')![1]!;
    const sessionId = request.headers['mcp-session-id'];
    let transport: StreamableHTTPServerTransport;
    if (typeof sessionId === 'string') {
      const session = sessions.find(sessionId);
      // Another account's session is as unknown as an ended one.
      if (!session || session.accountId !== accountId) return rpcError(reply, 404, 'Session not found; initialize a new one');
      session.lastSeenMs = Date.now();
      transport = session.transport;
    } else if (request.method === 'POST' && (await loadMcpModules()).isInitializeRequest(request.body)) {
      transport = await sessions.open(accountId);
    } else {
      return rpcError(reply, 400, 'No session: send initialize first, then the Mcp-Session-Id header it answers');
    }
    // The transport writes the answer (JSON or an SSE stream) itself.
    reply.hijack();
    const raw = Object.assign(request.raw, { auth: { token, clientId: String(accountId), scopes: [] as string[] } });
    try {
      await transport.handleRequest(raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
      } else reply.raw.end();
    }
  };
}
