// `peerpay login --email …` (DESIGN §12): a new API key for an existing account, saved.
import type { Command } from 'commander';
import { createPeerpayClient } from '@peerpay/client';
import type { CliContext } from '../cli-context.js';
import { PASSWORD_STDIN_HELP, password, saveKey } from './credentials.js';

export function loginCommand(program: Command, ctx: CliContext): void {
  program
    .command('login')
    .description('get a new API key for your account and save it')
    .requiredOption('--email <email>', 'your e-mail address')
    .option('--password-stdin', PASSWORD_STDIN_HELP)
    .action(async (options: { email: string; passwordStdin?: boolean }) => {
      const api = createPeerpayClient({ baseUrl: ctx.baseUrl() });
      const answer = await api.registerAgent({ body: { email: options.email, password: await password(options) } });
      await saveKey(ctx, answer, options.email);
    });
}
