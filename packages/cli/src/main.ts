// The peerpay command (DESIGN §12). Every command takes --json (machine-readable answer on stdout);
// send and withdraw show recipient, amount, currency and fee and ask before moving money (--yes for
// scripts). Refusals print the service's message and the next step; the card ones print a setup link.
// One module per command under commands/ (DESIGN §21); main only adds them and reports a failure.
import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { balanceCommand } from './commands/balance.js';
import { eventsCommand } from './commands/events.js';
import { historyCommand } from './commands/history.js';
import { limitsCommand } from './commands/limits.js';
import { linksCommand } from './commands/links.js';
import { loginCommand } from './commands/login.js';
import { mcpCommand } from './commands/mcp.js';
import { operatorCommand } from './commands/operator/index.js';
import { quoteCommand } from './commands/quote.js';
import { registerCommand } from './commands/register.js';
import { sendCommand } from './commands/send.js';
import { withdrawCommand } from './commands/withdraw.js';
import { contextOf, peerpayProgram } from './program.js';
import { report } from './report.js';

export { compareDecimals } from './before-asking.js';

/** The commands, in the order `peerpay --help` lists them. */
const COMMANDS: readonly ((program: Command, ctx: CliContext) => void)[] = [
  registerCommand,
  loginCommand,
  balanceCommand,
  quoteCommand,
  sendCommand,
  withdrawCommand,
  linksCommand,
  historyCommand,
  eventsCommand,
  limitsCommand,
  operatorCommand,
  mcpCommand,
];

export async function main(argv: string[]): Promise<number> {
  const program = peerpayProgram();
  const { ctx, currencyOfCall } = contextOf(program);
  for (const command of COMMANDS) command(program, ctx);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    return await report(error, ctx.json(), () => ctx.client(), currencyOfCall());
  }
}
