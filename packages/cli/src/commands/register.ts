// `peerpay register --email … --name …` (DESIGN §12): creates an account (or gets a new key for an
// existing one) and saves its API key.
import type { Command } from 'commander';
import { createPeerpayClient } from '@peerpay/client';
import type { CliContext } from '../cli-context.js';
import { PASSWORD_STDIN_HELP, password, saveKey } from './credentials.js';

export function registerCommand(program: Command, ctx: CliContext): void {
  program
    .command('register')
    .description('create an account (or get a new key for an existing one) and save its API key')
    .requiredOption('--email <email>', 'your e-mail address')
    .requiredOption('--name <name>', 'your name')
    .option('--password-stdin', PASSWORD_STDIN_HELP)
    .action(async (options: { email: string; name: string; passwordStdin?: boolean }) => {
      const api = createPeerpayClient({ baseUrl: ctx.baseUrl() });
      const answer = await api.registerAgent({ body: { email: options.email, name: options.name, password: await password(options) } });
      await saveKey(ctx, answer, options.email);
    });
}
