// What a person sees when they run peerpay in a terminal: a line at once saying that it is
// starting, then, once it answers, a short banner (where it listens, the API reference, the mode,
// the database, the chain, DATA_DIR, how to stop) and readable log lines. Anywhere else (a pipe, a
// file, a container's log collector) and with LOG_FORMAT=json, the logs stay JSON lines and no
// banner is printed. Nothing here names a secret: a PostgreSQL URL loses its credentials, and an
// external CHAIN_RPC_URL (whose path often holds a provider's key) is never printed.
import { createRequire } from 'node:module';
import path from 'node:path';
import pretty from 'pino-pretty';
import type { Config } from '../config.js';

export interface Terminal {
  readonly isTTY?: boolean;
}

/** Readable output (banner and log lines) or JSON lines, from LOG_FORMAT and whether stdout is a terminal. */
export function usesReadableOutput(config: Pick<Config, 'logFormat'>, stdout: Terminal = process.stdout): boolean {
  if (config.logFormat === 'json') return false;
  if (config.logFormat === 'pretty') return true;
  return stdout.isTTY === true;
}

/**
 * A pino destination writing readable lines to `destination` (stdout by default): time, level,
 * message, and for requests the id, method, path and status instead of their JSON objects.
 */
export function readableLogStream(options: { colorize: boolean; destination?: NodeJS.WritableStream | number }): NodeJS.WritableStream {
  return pretty({
    sync: true,
    colorize: options.colorize,
    destination: options.destination ?? 1,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: formatMessage,
  });
}

/** One request is one line once answered: `req_… GET /path 200 in 3 ms`. */
function formatMessage(log: Record<string, unknown>, messageKey: string): string {
  const raw = log[messageKey];
  const message = typeof raw === 'string' ? raw : raw === undefined ? '' : JSON.stringify(raw);
  const reqId = typeof log.reqId === 'string' ? log.reqId : undefined;
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  if (reqId && req && res && message === 'request completed') {
    const ms = typeof log.responseTime === 'number' ? ` in ${Math.round(log.responseTime)} ms` : '';
    return `${reqId} ${req.method} ${req.url} ${res.statusCode}${ms}`;
  }
  return reqId ? `${reqId} ${message}` : message;
}

/** Printed at once on a terminal, so that the seconds before the banner are not silent. */
export function startingLine(config: Pick<Config, 'mode' | 'dataDir'>, firstStart: boolean): string {
  const where = displayPath(config.dataDir);
  return firstStart
    ? `peerpay is starting in ${config.mode} mode; this first start creates the database and the chain in ${where}, which takes a few seconds more.\n`
    : `peerpay is starting in ${config.mode} mode...\n`;
}

export interface BannerFacts {
  readonly version: string;
  readonly mode: Config['mode'];
  /** The base of every link (PUBLIC_URL, or where peerpay listens). */
  readonly url: string;
  /** Where the HTTP server listens, when it differs from `url` (a PUBLIC_URL in front of it). */
  readonly listening: string | undefined;
  readonly database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };
  readonly chain: { embedded: true; id: number; rpcUrl: string } | { embedded: false; id: number };
  /** Undefined when nothing is kept there (PostgreSQL, an external chain and a given seed). */
  readonly dataDir: string | undefined;
  readonly hotWallet: string;
  readonly metricsUrl: string | undefined;
  readonly readyMs: number;
  /** Whether OPERATOR_TOKEN is set: the bootstrap admin that makes the first operator. */
  readonly operatorToken: boolean;
  /** CONSOLE: whether the operator console is served at /console. */
  readonly console: boolean;
}

/** The banner printed once the service answers. Plain text; `bold` only emphasises the first line. */
export function banner(facts: BannerFacts, style: { bold: (text: string) => string } = { bold: (text) => text }): string {
  const seconds = (facts.readyMs / 1000).toFixed(1);
  const rows: Array<[string, string]> = [
    ['URL', facts.url],
    ...(facts.listening ? [['Listening', facts.listening] as [string, string]] : []),
    ['API docs', `${facts.url}/docs`],
    ['Mode', facts.mode === 'sandbox' ? 'sandbox: simulated card network and bank, test USDC and EURC, /test-helpers on' : 'live'],
    [
      'Database',
      facts.database.kind === 'pglite'
        ? `PGlite (embedded) in ${displayPath(facts.database.dir)}`
        : `PostgreSQL ${withoutCredentials(facts.database.url)}`,
    ],
    [
      'Chain',
      facts.chain.embedded
        ? `anvil (embedded), chain id ${facts.chain.id}, RPC ${facts.chain.rpcUrl}`
        : `chain id ${facts.chain.id} at CHAIN_RPC_URL`,
    ],
    ['DATA_DIR', facts.dataDir === undefined ? 'not used' : displayPath(facts.dataDir)],
    ['Hot wallet', facts.hotWallet],
    ...(facts.metricsUrl ? [['Metrics', facts.metricsUrl] as [string, string]] : []),
    ...(facts.mode === 'sandbox' ? [['Operators', firstOperator(facts)] as [string, string]] : []),
    ...(facts.mode === 'sandbox' && facts.console ? [['Console', consoleLine(facts)] as [string, string]] : []),
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    '',
    style.bold(`  peerpay ${facts.version} is ready in ${facts.mode} mode (${seconds} s)`),
    '',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}${value}`),
    '',
    `  Stop it with Ctrl+C (everything is kept in DATA_DIR for the next start). Logs follow.`,
    '',
    '',
  ].join('\n');
}

/** How to make the first operator (DESIGN §17): OPERATOR_TOKEN is the bootstrap admin. It names the variable, never its value. */
function firstOperator(facts: BannerFacts): string {
  const command = `PEERPAY_URL=${facts.url} PEERPAY_OPERATOR_TOKEN=$OPERATOR_TOKEN npx peerpay operator add NAME --role admin`;
  return facts.operatorToken ? `make the first: ${command}` : `restart with OPERATOR_TOKEN set (32+ characters), then: ${command}`;
}

/** How to reach the operator console (DESIGN §17, §18): the operator made above opens its enrolment link, then signs in. */
function consoleLine(facts: BannerFacts): string {
  return `${facts.url}/console: open the enrolmentUrl that operator add prints, set a password and TOTP, then sign in at ${facts.url}/console/sign-in`;
}

/** host:port/database of a PostgreSQL URL: never its user or password. */
export function withoutCredentials(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.host}${url.pathname}`;
  } catch {
    return '(DATABASE_URL)';
  }
}

/** A path below the working directory as ./relative, anything else as given. */
function displayPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  if (relative === '') return '.';
  if (!relative.startsWith('..') && !path.isAbsolute(relative)) return `.${path.sep}${relative}`;
  return dir;
}

/** Colours only on a terminal that takes them (NO_COLOR and FORCE_COLOR are honoured). */
export function usesColour(stdout: Terminal = process.stdout): boolean {
  return stdout.isTTY === true && pretty.isColorSupported;
}

/** package.json's version; the same relative path from src/platform and dist/platform. */
export function peerpayVersion(): string {
  return (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
}

/** ANSI bold when colours are on. */
export function boldWhen(colorize: boolean): (text: string) => string {
  return colorize ? (text) => `\u001b[1m${text}\u001b[22m` : (text) => text;
}
