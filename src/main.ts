// Entry point: loadConfig → start-up checks → createDeps → buildApp → serve, with a graceful
// shutdown (a drain): not ready at once, still answering for DRAIN_DELAY_MS while a load balancer
// notices, then no new connections, the requests under way finish, the jobs stop and the database
// closes, all within SHUTDOWN_TIMEOUT_MS. Before anything is written to DATA_DIR or a database is
// opened, the embedded chain's platform is checked and the ports are bound: either refusal is one line on stderr. On a terminal
// (LOG_FORMAT auto) a line says at once that it is starting, a banner says where it answers once
// it does, and the logs are readable lines; elsewhere they are JSON lines.
import fs from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import { loadConfig, ConfigError, withListeningPort, type Config } from './config.js';
import type { Deps } from './deps.js';
import { openDatabase, type Database } from './db/database.js';
import type { App } from './http/types.js';
import { DatabaseUnreachableError } from './db/database-reachable.js';
import { seedPgliteFromTemplate } from './startup/pglite-template.js';
import { PRIVATE_UMASK, prepareDataDir, usesDataDir } from './startup/data-dir.js';
import { installFatalHandlers, type FatalLogger } from './startup/fatal.js';
import { bindListener, checkEmbeddedChain, StartUpError, type Listener } from './startup/start-up.js';
import {
  banner,
  boldWhen,
  peerpayVersion,
  readableLogStream,
  startingLine,
  usesColour,
  usesReadableOutput,
} from './startup/console-output.js';

async function main(): Promise<void> {
  // First of all: nothing peerpay, PGlite or anvil creates is open to group or others (DESIGN §15).
  process.umask(PRIVATE_UMASK);
  let log: FatalLogger = { fatal: (fields, message) => console.error(`peerpay: ${message}`, fields.err) };
  installFatalHandlers({ fatal: (fields, message) => log.fatal(fields, message) });
  let config = loadConfigOrExit();
  const listeners = await startUpChecks(config);
  // PORT=0: the system chose the port; links and the banner name the chosen one.
  config = withListeningPort(config, listeners.web.port);
  const readable = usesReadableOutput(config);
  const colour = readable && usesColour();
  if (readable) process.stdout.write(startingLine(config, isFirstStart(config)));
  if (usesDataDir(config)) prepareDataDir(config.dataDir, (message) => console.error(`peerpay: warning: ${message}`));
  // The database opens (PGlite compiles its WebAssembly, recovers and migrates; on a first start
  // from the template npm ci made) while the rest of peerpay's modules load: the two largest parts
  // of a start, overlapped. (As createDeps would open it.)
  const [database, { createDeps }, { InstallationMismatchError }, { buildApp }, { startJobs }, { metricsRequestHandler }] =
    await Promise.all([
      openDatabaseOrExit(config),
      import('./deps.js'),
      import('./startup/installation-identity.js'),
      import('./app.js'),
      import('./jobs/job-runner.js'),
      import('./http/plugins/metrics.js'),
    ]);
  // The database, the master seed and the chain do not belong together: one line naming which.
  const deps = await createDeps(config, { database }).catch((error: unknown) => {
    if (!(error instanceof InstallationMismatchError)) throw error;
    console.error(`peerpay: ${error.message}`);
    return process.exit(1);
  });
  let fastifyHandler: RequestListener | undefined;
  const app = await buildApp(deps, {
    ...(readable ? { logStream: readableLogStream({ colorize: colour }) } : {}),
    serverFactory: (handler, options) => {
      fastifyHandler = handler;
      return adoptServerOptions(listeners.web, options);
    },
  });
  log = app.log;
  await app.ready();
  listeners.web.serve(fastifyHandler!);
  listeners.metrics?.serve(metricsRequestHandler(deps.metrics.registry));
  const jobs = startJobs(deps, app.log);
  announceReady({ deps, app, listeners, readable, colour });

  installShutdown({ config, app, deps, listeners, jobs });
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`peerpay: configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

function isFirstStart(config: Config): boolean {
  return !config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'pglite'));
}

/**
 * Opens the database (PGlite compiles its WebAssembly, recovers and migrates; on a first start
 * from the template npm ci made) while the rest of peerpay's modules load: the two largest parts
 * of a start, overlapped. (As createDeps would open it.)
 */
function openDatabaseOrExit(config: Config): Promise<Database> {
  const pgliteDir = path.join(config.dataDir, 'pglite');
  return (async () => {
    if (!config.databaseUrl) await seedPgliteFromTemplate(pgliteDir);
    return openDatabase({ url: config.databaseUrl, pgliteDir, preparedStatements: config.preparedStatements });
  })().catch((error: unknown) => {
    // A database that does not answer is the operator's to fix: one line, not a stack trace.
    if (!(error instanceof DatabaseUnreachableError)) throw error;
    console.error(`peerpay: ${error.message}`);
    return process.exit(1);
  });
}

interface Running {
  deps: Deps;
  app: App;
  listeners: { web: Listener; metrics: Listener | null };
}

/** The banner on a terminal, else one JSON line: where peerpay answers, once it does. */
function announceReady({ deps, app, listeners, readable, colour }: Running & { readable: boolean; colour: boolean }): void {
  const { config } = deps;
  const readyMs = Math.round(performance.now());
  if (readable) {
    process.stdout.write(banner(bannerFacts(deps, listeners, readyMs), { bold: boldWhen(colour) }));
  } else {
    // The hot wallet's address is public (it pays gas and receives sweeps); an operator funds it with gas.
    app.log.info(
      {
        mode: config.mode,
        database: deps.database.kind,
        url: config.publicUrl,
        hotWallet: deps.wallets.hotWallet.address,
        startUpMs: readyMs,
      },
      'peerpay is listening',
    );
  }
}

/** SIGTERM and SIGINT drain, then stop (see the top of this file); a second signal skips the drain delay. */
function installShutdown({ config, app, deps, listeners, jobs }: Running & { config: Config; jobs: { stop(): Promise<void> } }): void {
  let stopping = false;
  let skipDrainDelay: () => void = () => undefined;
  const stop = async (signal: string) => {
    if (stopping) {
      // A second signal: no more waiting for the load balancer.
      skipDrainDelay();
      return;
    }
    stopping = true;
    const { drainDelayMs, shutdownTimeoutMs } = config;
    app.log.info({ signal, drainDelayMs }, 'draining: /health/ready answers 503 from now on');
    deps.lifecycle.startDraining();
    const force = setTimeout(() => {
      app.log.error({ shutdownTimeoutMs }, 'requests or jobs still under way after SHUTDOWN_TIMEOUT_MS; exiting anyway');
      process.exit(1);
    }, drainDelayMs + shutdownTimeoutMs);
    force.unref();
    // The jobs stop at once (the job under way finishes, the rest of its round is left): every
    // process runs them, so the others' next ticks take over without waiting for this one to go.
    const jobsStopped = jobs.stop();
    // Meanwhile requests are still served, so that those the load balancer sends before its health
    // check has seen /health/ready fail are answered, not refused.
    await new Promise<void>((resolve) => {
      skipDrainDelay = resolve;
      setTimeout(resolve, drainDelayMs).unref();
    });
    app.log.info('shutting down: no new connections; the requests under way finish');
    // The server stops accepting and closes when the requests under way have finished;
    // Fastify answers any newer request on an open connection 503.
    const webClosed = listeners.web.close();
    await app.close();
    await webClosed;
    await listeners.metrics?.close();
    await jobsStopped;
    await deps.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** The embedded chain runs here, and PORT (and METRICS_PORT) are bound; else one line and exit 1. */
async function startUpChecks(config: Config): Promise<{ web: Listener; metrics: Listener | null }> {
  let web: Listener | null = null;
  try {
    checkEmbeddedChain(config);
    web = await bindListener({ port: config.port, host: config.host, setting: 'PORT' });
    const metrics =
      config.metricsPort === undefined
        ? null
        : await bindListener({ port: config.metricsPort, host: config.host, setting: 'METRICS_PORT' });
    return { web, metrics };
  } catch (error) {
    if (!(error instanceof StartUpError)) throw error;
    await web?.close();
    console.error(error.message);
    process.exit(1);
  }
}

/** What the banner shows; from the running service, so that it says what is, not what was asked for. */
function bannerFacts(deps: Deps, listeners: { web: Listener; metrics: Listener | null }, readyMs: number): Parameters<typeof banner>[0] {
  const { config } = deps;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const listening = `http://${host}:${listeners.web.port}`;
  const embedded = deps.chain.embedded;
  return {
    version: peerpayVersion(),
    mode: config.mode,
    url: config.publicUrl,
    listening: listening === config.publicUrl ? undefined : listening,
    database:
      deps.database.kind === 'pglite' || !config.databaseUrl
        ? { kind: 'pglite', dir: path.join(config.dataDir, 'pglite') }
        : { kind: 'postgres', url: config.databaseUrl },
    chain: embedded ? { embedded: true, id: embedded.chainId, rpcUrl: embedded.rpcUrl } : { embedded: false, id: deps.chain.chainId },
    dataDir: usesDataDir(config) ? config.dataDir : undefined,
    hotWallet: deps.wallets.hotWallet.address,
    metricsUrl: listeners.metrics ? `http://${host}:${listeners.metrics.port}/metrics` : undefined,
    readyMs,
    operatorToken: config.treasury.operatorToken !== undefined,
    console: config.console,
  };
}

/** The timeouts Fastify gives a server it creates itself (keep-alive longer than a balancer's idle time). */
function adoptServerOptions(listener: Listener, options: Record<string, unknown>): Listener['server'] {
  const { server } = listener;
  if (typeof options.keepAliveTimeout === 'number') server.keepAliveTimeout = options.keepAliveTimeout;
  if (typeof options.requestTimeout === 'number') server.requestTimeout = options.requestTimeout;
  if (typeof options.connectionTimeout === 'number') server.setTimeout(options.connectionTimeout);
  return server;
}

await main();
