// `peerpay mcp` (DESIGN §12): the MCP tools on standard input and output, for desktop agents, on
// PEERPAY_URL and PEERPAY_API_KEY (or the saved key).
import type { Command } from 'commander';
import { Exit, type CliContext } from '../cli-context.js';
import { readConfig } from '../config-store.js';
import { serveStdio } from '../mcp-stdio.js';

export function mcpCommand(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description('an MCP server on standard input and output, for desktop agents (PEERPAY_URL, PEERPAY_API_KEY)')
    .action(async () => {
      const apiKey = process.env.PEERPAY_API_KEY || readConfig().apiKey;
      if (!apiKey) throw new Exit(2, 'peerpay mcp needs PEERPAY_API_KEY (or a key saved by `peerpay login`).');
      await serveStdio({ baseUrl: ctx.baseUrl(), apiKey });
    });
}
