// The start-up banner and the readable log lines of a terminal, and when each is used: LOG_FORMAT
// and whether stdout is a terminal. Nothing printed names a secret.
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, withListeningPort } from '../../src/config.js';
import {
  banner,
  readableLogStream,
  startingLine,
  usesReadableOutput,
  withoutCredentials,
  type BannerFacts,
} from '../../src/startup/console-output.js';

const facts: BannerFacts = {
  version: '0.1.0',
  mode: 'sandbox',
  url: 'http://127.0.0.1:3000',
  listening: undefined,
  database: { kind: 'pglite', dir: `${process.cwd()}/data/pglite` },
  chain: { embedded: true, id: 137, rpcUrl: 'http://127.0.0.1:45123' },
  dataDir: `${process.cwd()}/data`,
  hotWallet: '0x4B7Ac8d76676b96d000CD0F42D05f15c14c63214',
  metricsUrl: undefined,
  readyMs: 2345,
  operatorToken: false,
  console: true,
};

describe('LOG_FORMAT', () => {
  it('is auto by default: readable output on a terminal, JSON lines elsewhere', () => {
    const config = loadConfig({});
    expect(config.logFormat).toBe('auto');
    expect(usesReadableOutput(config, { isTTY: true })).toBe(true);
    expect(usesReadableOutput(config, { isTTY: false })).toBe(false);
    expect(usesReadableOutput(config, {})).toBe(false);
  });

  it('json is JSON lines also on a terminal; pretty is readable also in a pipe; anything else is refused', () => {
    expect(usesReadableOutput(loadConfig({ LOG_FORMAT: 'json' }), { isTTY: true })).toBe(false);
    expect(usesReadableOutput(loadConfig({ LOG_FORMAT: 'pretty' }), { isTTY: false })).toBe(true);
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be one of auto, json, pretty/);
  });
});

describe('PORT=0', () => {
  it('puts the port the system chose into the default PUBLIC_URL, and leaves a configured one alone', () => {
    const chosen = withListeningPort(loadConfig({ PORT: '0' }), 41234);
    expect(chosen.port).toBe(41234);
    expect(chosen.publicUrl).toBe('http://127.0.0.1:41234');
    const configured = withListeningPort(loadConfig({ PORT: '0', PUBLIC_URL: 'https://pay.example.com' }), 41234);
    expect(configured.publicUrl).toBe('https://pay.example.com');
    const fixed = loadConfig({ PORT: '3000' });
    expect(withListeningPort(fixed, 3000)).toBe(fixed);
  });
});

describe('the banner', () => {
  it('names the URL, /docs, the mode, the database, the chain RPC, DATA_DIR and how to stop', () => {
    const text = banner(facts);
    expect(text).toContain('peerpay 0.1.0 is ready in sandbox mode (2.3 s)');
    expect(text).toMatch(/^ {2}URL +http:\/\/127\.0\.0\.1:3000$/m);
    expect(text).toMatch(/^ {2}API docs +http:\/\/127\.0\.0\.1:3000\/docs$/m);
    expect(text).toMatch(/^ {2}Mode +sandbox/m);
    expect(text).toMatch(/^ {2}Database +PGlite \(embedded\) in \.\/data\/pglite$/m);
    expect(text).toMatch(/^ {2}Chain +anvil \(embedded\), chain id 137, RPC http:\/\/127\.0\.0\.1:45123$/m);
    expect(text).toMatch(/^ {2}DATA_DIR +\.\/data$/m);
    expect(text).toContain('Ctrl+C');
    expect(text.split('\n').length).toBeLessThan(20);
  });

  it('in sandbox mode, says how to make the first operator, without naming the token', () => {
    const command = 'PEERPAY_URL=http://127.0.0.1:3000 PEERPAY_OPERATOR_TOKEN=$OPERATOR_TOKEN npx peerpay operator add NAME --role admin';
    expect(banner(facts)).toMatch(/^ {2}Operators +restart with OPERATOR_TOKEN set \(32\+ characters\), then: /m);
    expect(banner(facts)).toContain(command);
    expect(banner({ ...facts, operatorToken: true })).toMatch(/^ {2}Operators +make the first: PEERPAY_URL=http:\/\/127\.0\.0\.1:3000 /m);
    expect(banner({ ...facts, mode: 'live', operatorToken: true })).not.toContain('Operators');
  });

  it('in sandbox mode, says how to reach the console, unless CONSOLE=off', () => {
    expect(banner(facts)).toMatch(
      /^ {2}Console +http:\/\/127\.0\.0\.1:3000\/console: open the enrolmentUrl that operator add prints, set a password and TOTP, then sign in at http:\/\/127\.0\.0\.1:3000\/console\/sign-in$/m,
    );
    expect(banner({ ...facts, console: false })).not.toMatch(/^ {2}Console /m);
    expect(banner({ ...facts, mode: 'live' })).not.toMatch(/^ {2}Console /m);
  });

  it('shows no credentials of DATABASE_URL and no CHAIN_RPC_URL', () => {
    const text = banner({
      ...facts,
      mode: 'live',
      url: 'https://pay.example.com',
      listening: 'http://0.0.0.0:3000',
      database: { kind: 'postgres', url: 'postgres://peerpay:s3cret@db.internal:5432/peerpay' },
      chain: { embedded: false, id: 137 },
      dataDir: undefined,
    });
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('peerpay:');
    expect(text).toMatch(/^ {2}Database +PostgreSQL db\.internal:5432\/peerpay$/m);
    expect(text).toMatch(/^ {2}Chain +chain id 137 at CHAIN_RPC_URL$/m);
    expect(text).toMatch(/^ {2}Listening +http:\/\/0\.0\.0\.0:3000$/m);
    expect(text).toMatch(/^ {2}DATA_DIR +not used$/m);
    expect(withoutCredentials('not a url')).toBe('(DATABASE_URL)');
  });

  it('is preceded by a line at once, which says when the first start takes longer', () => {
    const config = loadConfig({ DATA_DIR: './data' });
    expect(startingLine(config, true)).toMatch(
      /^peerpay is starting in sandbox mode; this first start creates the database and the chain in \.\/data/,
    );
    expect(startingLine(config, false)).toBe('peerpay is starting in sandbox mode...\n');
  });
});

describe('readable log lines', () => {
  it('show a request as one line, its id, method, path, status and time, and keep other fields', async () => {
    let output = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        output += String(chunk);
        done();
      },
    });
    const log = pino({ level: 'info' }, readableLogStream({ colorize: false, destination: sink }));
    log
      .child({ reqId: 'req_abc' })
      .info({ req: { method: 'GET', url: '/health' }, res: { statusCode: 200 }, responseTime: 3.4 }, 'request completed');
    log.info({ signal: 'SIGINT' }, 'shutting down');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: req_abc GET \/health 200 in 3 ms$/);
    expect(lines[1]).toMatch(/INFO: shutting down$/);
    expect(lines[2]).toMatch(/signal: "SIGINT"/);
    expect(output).not.toContain('{"level"');
  });
});
