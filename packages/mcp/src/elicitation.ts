// Asking the user through the client (MCP elicitation), when the client declared it can: a yes or no
// to a movement's terms (form mode) and a link to open (url mode). The server never sees the
// user's screen: it sends the request and reads the answer.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolExtra } from './options.js';

/** Which elicitation modes the connected client declared. */
export function elicitationModes(server: McpServer): { form: boolean; url: boolean } {
  const elicitation = server.server.getClientCapabilities()?.elicitation as { form?: object; url?: object } | undefined;
  if (!elicitation) return { form: false, url: false };
  // An empty capability object is form mode (the protocol's earlier revision).
  return { form: elicitation.form !== undefined || Object.keys(elicitation).length === 0, url: elicitation.url !== undefined };
}

/** Asks the user `question` about `summary` as a form with one boolean; an Error when they could not be asked. */
export function askToConfirm(extra: ToolExtra, summary: string, question: string, timeoutMs: number): Promise<ElicitResult | Error> {
  return extra
    .sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: `${summary}\n\n${question}`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: question, description: summary } },
            required: ['confirm'],
          },
        },
      },
      ElicitResultSchema,
      { timeout: timeoutMs },
    )
    .catch((error: unknown) => error as Error);
}

/** Offers the user a link to open; the client shows it. Null when the user could not be asked. */
export function offerLink(extra: ToolExtra, message: string, url: string, timeoutMs: number): Promise<ElicitResult | null> {
  return extra
    .sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message,
          url,
          elicitationId: `link-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
        },
      },
      ElicitResultSchema,
      { timeout: timeoutMs },
    )
    .catch(() => null);
}
