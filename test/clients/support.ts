// Shared by the client tests (SDK, MCP, CLI): a test server reachable over real HTTP (the MCP
// transport streams, and the CLI is another process), users made through the SDK, and the few
// sandbox steps the tests take (a card set up through its link page, tokens credited).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createPeerpayClient, type PeerpayClient } from '@peerpay/client';
import { startTestServer, registerUser, type TestServer, type TestUser } from '../helpers/test-server.js';
import { fund } from '../helpers/stablecoin.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface ClientsServer {
  server: TestServer;
  /** http://127.0.0.1:port of a listening server. */
  url: string;
  /** A new user with a client on its key. */
  user(): Promise<TestUser & { api: PeerpayClient }>;
  /** A card (or bank debit) set up through the sandbox link page, as the user's browser would. */
  setUpCard(user: { key: string }, kind?: 'card' | 'bank_debit'): Promise<void>;
  /** Credits tokens as a confirmed deposit would. */
  fund(user: { handle: string }, amountMinor: bigint, token?: 'USDC' | 'EURC'): Promise<void>;
  close(): Promise<void>;
}

export async function startClientsServer(env: Record<string, string> = {}): Promise<ClientsServer> {
  const server = await startTestServer(env);
  // The test server may answer through app.inject only; these tests need a port.
  if (!server.app.server.listening) await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (!address || typeof address === 'string') throw new Error('server has no port');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    server,
    url,
    async user() {
      const user = await registerUser(server);
      return { ...user, api: createPeerpayClient({ baseUrl: url, apiKey: user.key }) };
    },
    async setUpCard(user, kind = 'card') {
      const api = createPeerpayClient({ baseUrl: url, apiKey: user.key });
      const link = kind === 'card' ? await api.createCardSetupLink() : await api.createBankDebitSetupLink();
      const page = await fetch(url + new URL(link.url).pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'outcome=succeed',
      });
      if (page.status !== 200) throw new Error(`completing the ${kind} link: ${page.status}`);
    },
    // The helper reads only the handle.
    fund: (user, amountMinor, token = 'USDC') => fund(server, user as TestUser, amountMinor, token),
    close: () => server.close(),
  };
}

/** Scripted answers to elicitation/create, and what the server asked. */
export class ElicitationScript {
  readonly asked: { mode: string; message: string; url?: string }[] = [];
  next: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } = { action: 'accept', content: { confirm: true } };

  answer(request: { params: Record<string, unknown> }) {
    this.asked.push({
      mode: String(request.params.mode ?? 'form'),
      message: String(request.params.message),
      ...(request.params.url ? { url: String(request.params.url) } : {}),
    });
    return this.next;
  }
}

/** An official MCP client; with a script, it declares elicitation (form and url) and answers by it. */
export async function mcpClient(transport: Transport, script?: ElicitationScript): Promise<Client> {
  const client = new Client(
    { name: 'peerpay-tests', version: '1.0.0' },
    { capabilities: script ? { elicitation: { form: {}, url: {} } } : {} },
  );
  if (script) client.setRequestHandler(ElicitRequestSchema, async (request) => script.answer(request as never) as never);
  await client.connect(transport);
  return client;
}

export function httpTransport(url: string, key: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
}

/** A tool call's result, typed loosely for assertions. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError?: boolean; structuredContent?: any; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    content: { type: string; text?: string }[];
  };
  return { isError: result.isError, structuredContent: result.structuredContent, text: result.content.map((c) => c.text ?? '').join('\n') };
}

/** The `peerpay` command as a user runs it: installed bin, the service's URL and the user's key, no config file. */
export const PEERPAY_BIN = path.resolve('node_modules/.bin/peerpay');

/** Runs `peerpay ARGS` to its end with stdin closed (no terminal to ask on); its exit code and output. */
export function runCli(input: {
  url: string;
  key: string;
  args: string[];
  /** More environment, e.g. PEERPAY_OPERATOR_TOKEN. */
  env?: Record<string, string>;
}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PEERPAY_BIN, input.args, {
      env: { ...process.env, PEERPAY_URL: input.url, PEERPAY_API_KEY: input.key, PEERPAY_CONFIG_DIR: '/nonexistent', ...input.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end();
  });
}
