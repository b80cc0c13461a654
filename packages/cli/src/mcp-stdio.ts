// `peerpay mcp`: the same MCP tools as the service's POST /mcp, over stdio, calling the service at
// PEERPAY_URL with PEERPAY_API_KEY. Confirmations (for clients without elicitation) are kept in this
// process's memory, bound to the key's account; stdout carries the protocol only.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createPeerpayClient } from '@peerpay/client';
import { createPeerpayMcpServer, MemoryConfirmationStore } from '@peerpay/mcp';

export async function serveStdio(options: { baseUrl: string; apiKey: string }): Promise<void> {
  const api = createPeerpayClient(options);
  // The account the confirmations are bound to; a refused key stops here, with the reason on stderr.
  const account = await api.getAccount();
  const server = createPeerpayMcpServer({ api: () => api, confirmations: new MemoryConfirmationStore(), owner: () => account.agentHandle });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.on('end', resolve);
  });
  await server.connect(transport);
  process.stderr.write(`peerpay MCP server on stdio for ${account.agentHandle} at ${options.baseUrl}\n`);
  await closed;
  await server.close();
}
