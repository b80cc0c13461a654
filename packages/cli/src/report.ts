// How a failed command ends: the message and the next step on stderr (and the error as JSON on
// stdout with --json), and the exit code: 0 help or version, 1 refused or failed, 2 usage, 3 not
// confirmed. Refusals the CLI can say in the user's terms are said so; card refusals bring a setup link.
import { PeerpayError, type PeerpayClient } from '@peerpay/client';
import { TermsError } from '@peerpay/mcp';
import { Exit } from './cli-context.js';
import { configFile } from './config-store.js';
import { complianceRefusal } from './refusals.js';

/** Prints a failure and the next step; answers the exit code. */
export async function report(error: unknown, json: boolean, api: () => PeerpayClient, currency: string | undefined): Promise<number> {
  const name = (error as { code?: string }).code;
  if (typeof name === 'string' && name.startsWith('commander.')) {
    // commander printed the usage or help already.
    return name === 'commander.helpDisplayed' || name === 'commander.version' || name === 'commander.help' ? 0 : 2;
  }
  if (error instanceof Exit) {
    if (json)
      process.stdout.write(
        JSON.stringify({
          error: {
            code: error.reason ?? (error.code === 3 ? 'not_confirmed' : error.code === 1 ? 'insufficient_balance' : 'usage'),
            detail: error.message,
          },
        }) + '\n',
      );
    process.stderr.write(error.message + '\n');
    return error.code;
  }
  if (error instanceof TermsError) {
    if (json) process.stdout.write(JSON.stringify({ error: { code: error.code, detail: error.detail } }) + '\n');
    process.stderr.write(`Error: ${error.detail} (${error.code})\n`);
    return 2;
  }
  if (!(error instanceof PeerpayError)) {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const next: NextStep = complianceRefusal(error, currency) ?? (await nextStep(error, api));
  if (json)
    process.stdout.write(
      JSON.stringify(
        {
          error: error.problem,
          ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
          ...(next.link ? { setupLink: next.link } : {}),
          nextStep: next.text,
        },
        null,
        2,
      ) + '\n',
    );
  // Refusals the CLI can say in the user's terms (no API paths) are said so; the rest as the service wrote them.
  const said = next.replacesDetail ? next.text : `Error: ${error.problem.detail} (${error.code})\n${next.text}`;
  process.stderr.write(said.trimEnd() + '\n');
  return 1;
}

interface NextStep {
  text: string;
  link?: string;
  /** The text says what happened in the user's terms, so the service's detail is not printed. */
  replacesDetail?: boolean;
}

async function nextStep(error: PeerpayError, api: () => PeerpayClient): Promise<NextStep> {
  const linkFor = async (kind: 'card' | 'bank_debit', what: string, add: string): Promise<NextStep> => {
    try {
      const client = api();
      const link = kind === 'card' ? await client.createCardSetupLink() : await client.createBankDebitSetupLink();
      return {
        text: `${what}: open this link to ${add}: ${link.url}\nThen run the command again. Nothing was sent.`,
        link: link.url,
        replacesDetail: true,
      };
    } catch {
      return {
        text: `${what}: run \`peerpay links ${kind}\` and open the link to ${add}, then run the command again. Nothing was sent.`,
        replacesDetail: true,
      };
    }
  };
  switch (error.code) {
    case 'card_setup_required':
      return linkFor('card', 'No card yet', 'add one');
    case 'card_declined':
      return linkFor('card', 'Your card was declined', 'add another');
    case 'card_authentication_required':
      return linkFor('card', 'Your bank wants you to confirm the card', 'set it up again');
    case 'ach_setup_required':
      return linkFor('bank_debit', 'Bank debit is not set up yet (or send with --method instant)', 'allow it');
    case 'insufficient_balance':
      return { text: 'Add funds with `peerpay links funding --amount <amount> --currency USDC`, or check `peerpay balance`.' };
    case 'recipient_not_found':
      return { text: 'Check the e-mail address or handle (PA- and 8 characters); the recipient needs a peerpay account.' };
    case 'unauthorized':
      return { text: `Your key was refused: run \`peerpay login --email <email>\` (config: ${configFile()}).` };
    case 'no_default_address':
      return { text: 'No withdrawal address is saved: pass --address 0x… (your Polygon address).', replacesDetail: true };
    case 'network_error':
      return { text: 'Is the service running? Set --url or PEERPAY_URL.' };
    default:
      return { text: error.retryAfterSeconds !== undefined ? `Try again in ${error.retryAfterSeconds} s.` : '' };
  }
}
