// The peerpay command (DESIGN §12). Every command takes --json (machine-readable answer on stdout);
// send and withdraw show recipient, amount, currency and fee and ask before moving money (--yes for
// scripts). Refusals print the service's message and the next step; the card ones print a setup link.
import { Command, Option } from 'commander';
import { createPeerpayClient, PeerpayError, type PeerpayClient } from '@peerpay/client';
import {
  describeSent,
  describeWithdrawal,
  quoteTransferTerms,
  quoteWithdrawalTerms,
  sendOnTerms,
  TermsError,
  withdrawOnTerms,
} from '@peerpay/mcp';
import { Exit, type CliContext } from './cli-context.js';
import { limitsCommand } from './commands/limits.js';
import { operatorCommand } from './commands/operator/index.js';
import { configFile, readConfig, writeConfig } from './config-store.js';
import { ask, readPassword } from './prompt.js';
import { serveStdio } from './mcp-stdio.js';
import { complianceRefusal } from './refusals.js';

const DEFAULT_URL = 'http://127.0.0.1:3000';

interface GlobalOptions {
  url?: string;
  json?: boolean;
}

export async function main(argv: string[]): Promise<number> {
  const program = new Command('peerpay')
    .description('Send and receive money with peerpay: fiat (card, bank debit) and stablecoins (USDC, EURC on Polygon)')
    .option('--url <url>', `the peerpay service (default: PEERPAY_URL, the saved one, or ${DEFAULT_URL})`)
    .version('0.1.0')
    .option('--json', 'print the answer as JSON')
    .showHelpAfterError()
    .exitOverride();

  const out = (json: unknown, text: string) => {
    if (program.opts<GlobalOptions>().json) process.stdout.write(JSON.stringify(json, null, 2) + '\n');
    else process.stdout.write(text + '\n');
  };
  const baseUrl = () => program.opts<GlobalOptions>().url || process.env.PEERPAY_URL || readConfig().url || DEFAULT_URL;
  const client = (): PeerpayClient => {
    const apiKey = process.env.PEERPAY_API_KEY || readConfig().apiKey;
    if (!apiKey) throw new Exit(2, 'No API key: run `peerpay register` or `peerpay login` first (or set PEERPAY_API_KEY).');
    return createPeerpayClient({ baseUrl: baseUrl(), apiKey });
  };
  const ctx: CliContext = { out, json: () => program.opts<GlobalOptions>().json === true, baseUrl, client };
  // The currency of the movement being quoted or made, for refusals that name amounts only.
  let currencyOfCall: string | undefined;

  async function saveKey(answer: { apiKey: string; agentHandle: string; isNewAccount: boolean }, email: string) {
    const file = writeConfig({ ...readConfig(), url: baseUrl(), apiKey: answer.apiKey, handle: answer.agentHandle, email });
    // The key is shown nowhere: it is in the file only.
    out(
      { handle: answer.agentHandle, email, isNewAccount: answer.isNewAccount, configFile: file },
      `${answer.isNewAccount ? 'Registered' : 'Logged in'} as ${answer.agentHandle} (${email}). API key saved to ${file}.`,
    );
  }

  async function password(options: { passwordStdin?: boolean }): Promise<string> {
    return readPassword({ fromStdin: options.passwordStdin === true, env: process.env.PEERPAY_PASSWORD });
  }

  program
    .command('register')
    .description('create an account (or get a new key for an existing one) and save its API key')
    .requiredOption('--email <email>', 'your e-mail address')
    .requiredOption('--name <name>', 'your name')
    .option('--password-stdin', 'read the password from the first line of standard input (else PEERPAY_PASSWORD or a prompt)')
    .action(async (options: { email: string; name: string; passwordStdin?: boolean }) => {
      const api = createPeerpayClient({ baseUrl: baseUrl() });
      const answer = await api.registerAgent({ body: { email: options.email, name: options.name, password: await password(options) } });
      await saveKey(answer, options.email);
    });

  program
    .command('login')
    .description('get a new API key for your account and save it')
    .requiredOption('--email <email>', 'your e-mail address')
    .option('--password-stdin', 'read the password from the first line of standard input (else PEERPAY_PASSWORD or a prompt)')
    .action(async (options: { email: string; passwordStdin?: boolean }) => {
      const api = createPeerpayClient({ baseUrl: baseUrl() });
      const answer = await api.registerAgent({ body: { email: options.email, password: await password(options) } });
      await saveKey(answer, options.email);
    });

  program
    .command('balance')
    .description('fiat balances per currency and stablecoin balances')
    .action(async () => {
      const api = client();
      const [fiat, stablecoin] = await Promise.all([api.getBalance(), api.getStablecoinBalance()]);
      const lines = fiat.balances.map(
        (b) => `  ${b.currency.padEnd(4)} ${b.available}${/^0(\.0+)?$/.test(b.pending) ? '' : `  (pending ${b.pending})`}`,
      );
      out(
        { fiat: fiat.balances, stablecoin },
        ['Fiat:', ...lines, 'Stablecoin:', `  USDC ${stablecoin.USDC}`, `  EURC ${stablecoin.EURC}`].join('\n'),
      );
    });

  const methodOption = () =>
    new Option('--method <method>', 'fiat: instant (card, default) or ach (bank debit)').choices(['instant', 'ach']);

  program
    .command('quote')
    .description('what sending would cost: recipient, fee and what arrives (USD/EUR/GBP/JPY: fiat; USDC/EURC: stablecoin)')
    .argument('<to>', 'recipient: e-mail address or PA- handle')
    .argument('<amount>', 'amount, e.g. 10.50')
    .argument('<currency>', 'USD, EUR, GBP, JPY, USDC or EURC')
    .addOption(methodOption())
    .action(async (to: string, amount: string, currency: string, options: { method?: 'instant' | 'ach' }) => {
      currencyOfCall = currency.trim().toUpperCase();
      const quoted = await quoteTransferTerms(client(), { to, amount, currency, paymentMethod: options.method });
      out(quoted.structured, quoted.summary);
    });

  program
    .command('send')
    .description('send money; shows the terms and asks first')
    .argument('<to>', 'recipient: e-mail address or PA- handle')
    .argument('<amount>', 'amount the recipient is sent, e.g. 10.50')
    .argument('<currency>', 'USD, EUR, GBP, JPY, USDC or EURC')
    .addOption(methodOption())
    .option('--note <note>', 'fiat: a message to the recipient')
    .option('-y, --yes', 'do not ask (for scripts)')
    .action(async (to: string, amount: string, currency: string, options: { method?: 'instant' | 'ach'; note?: string; yes?: boolean }) => {
      currencyOfCall = currency.trim().toUpperCase();
      const api = client();
      const quoted = await quoteTransferTerms(api, { to, amount, currency, paymentMethod: options.method, note: options.note });
      if (quoted.rail === 'stablecoin') await requireTokens(api, quoted.terms.currency, quoted.terms.amount);
      else await requireInstrument(api, options.method ?? 'instant');
      await confirm(quoted.summary, 'Send?', options.yes === true, quoted.structured);
      const result = await sendOnTerms(api, quoted);
      out(result, describeSent(result));
    });

  program
    .command('withdraw')
    .description('send USDC or EURC to a Polygon address; shows the terms and asks first')
    .argument('<amount>', 'amount before the 1.49% fee, e.g. 25')
    .argument('<currency>', 'USDC or EURC')
    .option('--address <address>', 'Polygon address (default: your saved withdrawal address)')
    .option('-y, --yes', 'do not ask (for scripts)')
    .action(async (amount: string, currency: string, options: { address?: string; yes?: boolean }) => {
      currencyOfCall = currency.trim().toUpperCase();
      const api = client();
      const quoted = await quoteWithdrawalTerms(api, { amount, currency, address: options.address });
      await requireTokens(api, quoted.terms.currency, quoted.terms.amount);
      await confirm(quoted.summary, 'Withdraw?', options.yes === true, quoted.structured);
      const result = await withdrawOnTerms(api, quoted);
      out(result, describeWithdrawal(result));
    });

  program
    .command('links')
    .description('a private link to open in a browser: card, bank_debit, payout, or funding (--amount, --currency)')
    .argument('<kind>', 'card | bank_debit | payout | funding')
    .option('--amount <amount>', 'funding: amount to add')
    .option('--currency <currency>', 'funding: USDC or EURC', 'USDC')
    .action(async (kind: string, options: { amount?: string; currency: string }) => {
      const api = client();
      let link: { url: string; expiresAt?: string; expiresIn?: string };
      if (kind === 'card') link = await api.createCardSetupLink();
      else if (kind === 'bank_debit') link = await api.createBankDebitSetupLink();
      else if (kind === 'payout') link = await api.createPayoutSetupLink();
      else if (kind === 'funding') {
        if (options.amount === undefined) throw new Exit(2, 'A funding link needs --amount (and --currency, USDC by default).');
        link = await api.createFundingLink({ body: { amount: options.amount, currency: options.currency } });
      } else throw new Exit(2, `Unknown link kind "${kind}": use card, bank_debit, payout or funding.`);
      out(link, `Open this link in your browser: ${link.url}\n(expires ${link.expiresAt ?? `in ${link.expiresIn}`})`);
    });

  program
    .command('history')
    .description('your transfers, newest first')
    .addOption(new Option('--rail <rail>', 'fiat or stablecoin').choices(['fiat', 'stablecoin']).default('fiat'))
    .option('--limit <n>', 'how many (1-100)', '20')
    .option('--cursor <cursor>', 'the next page, from the previous answer')
    .action(async (options: { rail: 'fiat' | 'stablecoin'; limit: string; cursor?: string }) => {
      const api = client();
      const query = { limit: options.limit, ...(options.cursor ? { cursor: options.cursor } : {}) };
      const page = options.rail === 'fiat' ? await api.listTransfers({ query }) : await api.listStablecoinTransfers({ query });
      const lines = (page.transfers as Record<string, unknown>[]).map((t) =>
        [
          t.createdAt,
          t.direction ?? '',
          t.amount,
          t.currency,
          t.status,
          t.counterpartyHandle ?? t.recipientHandle ?? t.senderHandle ?? t.address ?? '',
        ]
          .filter((v) => v !== '' && v !== undefined)
          .join('  '),
      );
      out(
        page,
        [
          ...(lines.length > 0 ? lines : ['No transfers.']),
          ...(page.nextCursor ? [`More: peerpay history --rail ${options.rail} --cursor ${page.nextCursor}`] : []),
        ].join('\n'),
      );
    });

  program
    .command('events')
    .description('what happened to your account, oldest first (transfers, deposits, withdrawals, payouts, links); --follow waits for more')
    .option('--after <eventId>', 'only the events after this one (nextCursor of the previous answer)')
    .option('--limit <n>', 'how many per page (1-100)', '20')
    .option('--follow', 'keep printing new events as they happen (Ctrl+C stops); with --json, one JSON event per line')
    .option('--interval <ms>', 'with --follow: how often to ask for new events', '2000')
    .action(async (options: { after?: string; limit: string; follow?: boolean; interval: string }) => {
      const api = client();
      const json = program.opts<GlobalOptions>().json === true;
      const line = (e: { id: string; type: string; createdAt: string; data: Record<string, unknown> }) =>
        json ? JSON.stringify(e) : [e.createdAt, e.type, eventSummary(e.data), e.id].filter((v) => v !== '').join('  ');
      let after = options.after;
      if (!options.follow) {
        const page = await api.listEvents({ query: { limit: options.limit, ...(after ? { after } : {}) } });
        const lines = page.events.map(line);
        out(
          page,
          [
            ...(lines.length > 0 ? lines : ['No events.']),
            // Only a full page may have more after it; the next page keeps this one's size.
            ...(page.nextCursor && lines.length >= Number(options.limit)
              ? [`More: peerpay events --after ${page.nextCursor}${options.limit === '20' ? '' : ` --limit ${options.limit}`}`]
              : []),
          ].join('\n'),
        );
        return;
      }
      const intervalMs = Math.max(200, Number(options.interval) || 2000);
      for (;;) {
        const page = await api.listEvents({ query: { limit: options.limit, ...(after ? { after } : {}) } });
        for (const e of page.events) process.stdout.write(line(e) + '\n');
        if (page.nextCursor) after = page.nextCursor;
        // A full page: more may be waiting now; otherwise wait before asking again.
        if (page.events.length < Number(options.limit)) await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    });

  limitsCommand(program, ctx);
  operatorCommand(program, ctx);

  program
    .command('mcp')
    .description('an MCP server on standard input and output, for desktop agents (PEERPAY_URL, PEERPAY_API_KEY)')
    .action(async () => {
      const apiKey = process.env.PEERPAY_API_KEY || readConfig().apiKey;
      if (!apiKey) throw new Exit(2, 'peerpay mcp needs PEERPAY_API_KEY (or a key saved by `peerpay login`).');
      await serveStdio({ baseUrl: baseUrl(), apiKey });
    });

  /** Asks before money moves; --yes skips it; with no terminal to ask on, refuses. */
  async function confirm(summary: string, question: string, yes: boolean, terms: unknown): Promise<void> {
    if (!program.opts<GlobalOptions>().json) process.stdout.write(summary + '\n');
    if (yes) return;
    if (!process.stdin.isTTY)
      throw new Exit(
        3,
        'Nothing was sent: there is no terminal to ask for a yes. Run it in a terminal, or pass --yes once the terms are right.',
      );
    if (program.opts<GlobalOptions>().json) process.stderr.write(JSON.stringify(terms) + '\n');
    const answer = await ask(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new Exit(3, 'Nothing was sent.');
  }

  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    return await report(error, program.opts<GlobalOptions>().json === true, () => client(), currencyOfCall);
  }
}

/** Refuses before the question when the balance cannot cover the amount: nothing would be sent anyway. */
async function requireTokens(api: PeerpayClient, currency: string, amount: string): Promise<void> {
  const balance = await api.getStablecoinBalance();
  const have = (balance as Record<string, string | undefined>)[currency];
  if (have === undefined || compareDecimals(have, amount) >= 0) return;
  throw new Exit(
    1,
    `Not enough ${currency}: you have ${have} ${currency} and this needs ${amount} ${currency}. Nothing was sent.\n` +
      `Add funds with \`peerpay links funding --amount <amount> --currency ${currency}\`, or send less.`,
  );
}

/**
 * Refuses before the question when the payment method is not set up (no card, no bank debit):
 * nothing would be sent anyway, so the user gets the link to set it up instead of a yes to answer.
 */
async function requireInstrument(api: PeerpayClient, method: 'instant' | 'ach'): Promise<void> {
  const { paymentMethods } = await api.getAccount();
  if (method === 'instant' ? paymentMethods.card : paymentMethods.bankDebit) return;
  const link = method === 'instant' ? await api.createCardSetupLink() : await api.createBankDebitSetupLink();
  throw new Exit(
    1,
    method === 'instant'
      ? `No card yet: open this link to add one: ${link.url}\nThen run the command again. Nothing was sent.`
      : `Bank debit is not set up yet (or send with --method instant): open this link to allow it: ${link.url}\nThen run the command again. Nothing was sent.`,
  );
}

/** Compares two non-negative decimal strings exactly (no floats): -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, '0'));
  const y = BigInt(bi + bf.padEnd(width, '0'));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** One line about an event's resource: amount, currency, status and the other party, as far as it has them. */
function eventSummary(data: Record<string, unknown>): string {
  return [data.direction, data.amount, data.currency, data.status, data.counterpartyHandle ?? data.kind ?? data.endpoint]
    .filter((v) => v !== undefined && v !== null && v !== '')
    .map(String)
    .join(' ');
}

/** Prints a failure and the next step; answers the exit code. */
async function report(error: unknown, json: boolean, api: () => PeerpayClient, currency: string | undefined): Promise<number> {
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
