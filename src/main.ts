// Entry point: loadConfig → createDeps → buildApp → listen, with a graceful shutdown that stops
// taking requests, lets those under way finish, stops the jobs and closes the database.
import { loadConfig, ConfigError } from './config.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { startJobs } from './jobs/job-runner.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`peerpay: configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const deps = await createDeps(config);
  const app = await buildApp(deps);
  const jobs = startJobs(deps, app.log);
  await app.listen({ port: config.port, host: config.host });
  // The hot wallet's address is public (it pays gas and receives sweeps); an operator funds it with gas.
  app.log.info({ mode: config.mode, database: deps.database.kind, url: config.publicUrl, hotWallet: deps.wallets.hotWallet.address }, 'peerpay is listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close();
    await jobs.stop();
    await deps.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main();
