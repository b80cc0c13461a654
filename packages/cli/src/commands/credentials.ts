// What `peerpay register` and `login` share: the password (PEERPAY_PASSWORD, --password-stdin or a
// prompt) and the key they get, saved to the configuration file and never printed.
import type { CliContext } from '../cli-context.js';
import { readConfig, writeConfig } from '../config-store.js';
import { readPassword } from '../prompt.js';

export const PASSWORD_STDIN_HELP = 'read the password from the first line of standard input (else PEERPAY_PASSWORD or a prompt)';

export async function password(options: { passwordStdin?: boolean }): Promise<string> {
  return readPassword({ fromStdin: options.passwordStdin === true, env: process.env.PEERPAY_PASSWORD });
}

export async function saveKey(ctx: CliContext, answer: { apiKey: string; agentHandle: string; isNewAccount: boolean }, email: string) {
  const file = writeConfig({ ...readConfig(), url: ctx.baseUrl(), apiKey: answer.apiKey, handle: answer.agentHandle, email });
  // The key is shown nowhere: it is in the file only.
  ctx.out(
    { handle: answer.agentHandle, email, isNewAccount: answer.isNewAccount, configFile: file },
    `${answer.isNewAccount ? 'Registered' : 'Logged in'} as ${answer.agentHandle} (${email}). API key saved to ${file}.`,
  );
}
