// Shared by the client tests (SDK, MCP, CLI): a test server reachable over real HTTP (the MCP
// transport streams, and the CLI is another process), users made through the SDK, and the few
// sandbox steps the tests take (a card set up through its link page, tokens credited).
import { createPeerpayClient, type PeerpayClient } from '@peerpay/client';
import { startTestServer, registerUser, type TestServer, type TestUser } from '../helpers/test-server.js';
import { fund } from '../helpers/stablecoin.js';

export interface ClientsServer {
  server: TestServer;
  /** http://127.0.0.1:port of a listening server. */
  url: string;
  /** A new user with a client on its key. */
  user(): Promise<TestUser & { api: PeerpayClient }>;
  /** A card (or bank debit) set up through the sandbox link page, as the user's browser would. */
  setUpCard(user: TestUser, kind?: 'card' | 'bank_debit'): Promise<void>;
  /** Credits tokens as a confirmed deposit would. */
  fund(user: TestUser, amountMinor: bigint, token?: 'USDC' | 'EURC'): Promise<void>;
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
      const page = await fetch(url + new URL(link.url).pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=succeed' });
      if (page.status !== 200) throw new Error(`completing the ${kind} link: ${page.status}`);
    },
    fund: (user, amountMinor, token = 'USDC') => fund(server, user, amountMinor, token),
    close: () => server.close(),
  };
}
