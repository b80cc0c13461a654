// What every chaos test that runs peerpay as processes starts with: the run's settings, the
// PostgreSQL server its databases are created on, and cleanups (processes, chain, database) run
// in reverse order once the file is done, whatever failed.
import { afterAll } from 'vitest';
import { chaosSettings, type ChaosSettings } from './settings.js';

export function processTest(): { settings: ChaosSettings; cleanups: (() => Promise<unknown>)[] } {
  const settings = chaosSettings();
  process.env.DATABASE_URL ??= settings.databaseUrl;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });
  return { settings, cleanups };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
