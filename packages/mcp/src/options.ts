// What the MCP server is made from: a peerpay client per tool call, the confirmation store, and
// whom a confirmation is bound to. Every tool module takes the parts of it that it uses.
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { PeerpayClient } from '@peerpay/client';
import type { ConfirmationStore } from './confirmations.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The peerpay client for one tool call. */
export type ApiFor = (extra: ToolExtra) => PeerpayClient;

export interface PeerpayMcpOptions {
  /** The peerpay client for a tool call (the service makes one per request, with its caller's key). */
  api: ApiFor;
  confirmations: ConfirmationStore;
  /** Whom confirmations are bound to: the account (id or handle) behind the key. */
  owner: (extra: ToolExtra) => string | Promise<string>;
  /** How long the server waits for the user's answer to an elicitation (default 10 minutes). */
  elicitationTimeoutMs?: number;
  version?: string;
}
