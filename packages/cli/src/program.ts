// The peerpay program (commander) with its global options, and the context every command module is
// given over it: --json, --url and the saved configuration, and a client on the user's key.
import { Command } from 'commander';
import { createPeerpayClient, type PeerpayClient } from '@peerpay/client';
import { Exit, type CliContext } from './cli-context.js';
import { readConfig } from './config-store.js';

const DEFAULT_URL = 'http://127.0.0.1:3000';

interface GlobalOptions {
  url?: string;
  json?: boolean;
}

export function peerpayProgram(): Command {
  return new Command('peerpay')
    .description('Send and receive money with peerpay: fiat (card, bank debit) and stablecoins (USDC, EURC on Polygon)')
    .option('--url <url>', `the peerpay service (default: PEERPAY_URL, the saved one, or ${DEFAULT_URL})`)
    .version('0.1.0')
    .option('--json', 'print the answer as JSON')
    .showHelpAfterError()
    .exitOverride();
}

/** The context of the commands, and the currency of the movement a command quoted or made (for its refusals). */
export function contextOf(program: Command): { ctx: CliContext; currencyOfCall: () => string | undefined } {
  const json = () => program.opts<GlobalOptions>().json === true;
  const out = (answer: unknown, text: string) => {
    if (program.opts<GlobalOptions>().json) process.stdout.write(JSON.stringify(answer, null, 2) + '\n');
    else process.stdout.write(text + '\n');
  };
  const baseUrl = () => program.opts<GlobalOptions>().url || process.env.PEERPAY_URL || readConfig().url || DEFAULT_URL;
  const client = (): PeerpayClient => {
    const apiKey = process.env.PEERPAY_API_KEY || readConfig().apiKey;
    if (!apiKey) throw new Exit(2, 'No API key: run `peerpay register` or `peerpay login` first (or set PEERPAY_API_KEY).');
    return createPeerpayClient({ baseUrl: baseUrl(), apiKey });
  };
  let currency: string | undefined;
  const movementIn = (given: string) => {
    currency = given.trim().toUpperCase();
  };
  return { ctx: { out, json, baseUrl, client, movementIn }, currencyOfCall: () => currency };
}
