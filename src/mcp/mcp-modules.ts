// The MCP SDK and peerpay's MCP tools (with zod, their schemas' library) are loaded on the first
// request to /mcp, not at start: about 20 MB of a process's idle memory that most installations
// never use (decision 0054). Concurrent first requests share one load (platform/load-once.ts).
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { createPeerpayMcpServer } from '@peerpay/mcp';
import { loadOnce } from '../platform/load-once.js';

export interface McpModules {
  StreamableHTTPServerTransport: typeof StreamableHTTPServerTransport;
  isInitializeRequest: typeof isInitializeRequest;
  createPeerpayMcpServer: typeof createPeerpayMcpServer;
}

export const loadMcpModules = loadOnce(async (): Promise<McpModules> => {
  const [http, types, tools] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@peerpay/mcp'),
  ]);
  return {
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
    isInitializeRequest: types.isInitializeRequest,
    createPeerpayMcpServer: tools.createPeerpayMcpServer,
  };
});
