// The custody check's metrics, read from custody_checks when /metrics is scraped, so that every
// process exports the last result whichever process ran the check.
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/database.js';

export function registerCustodyMetrics(registry: Registry, deps: { db: Db }): void {
  const read = () => deps.db.selectFrom('custody_checks').select(['token', 'books_minor', 'chain_minor', 'ok', 'checked_at']).execute();
  new Gauge({
    name: 'peerpay_custody_check_ok',
    help: '1 when the last books-against-custody check found the chain holding at least what the books say for every token, 0 on a shortfall (1 before any check)',
    registers: [registry],
    async collect() {
      const rows = await read();
      this.set(rows.every((r) => r.ok) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'peerpay_custody_shortfall_minor',
    help: 'Per token, minor units the books say peerpay holds on chain beyond what the chain holds (0 when none), at the last check',
    labelNames: ['token'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await read()) {
        const shortfall = BigInt(r.books_minor) - BigInt(r.chain_minor);
        this.set({ token: r.token }, shortfall > 0n ? Number(shortfall) : 0);
      }
    },
  });
  new Gauge({
    name: 'peerpay_custody_checked_timestamp_seconds',
    help: 'When the oldest per-token result of the last custody check was taken (0 before any check)',
    registers: [registry],
    async collect() {
      const rows = await read();
      this.set(rows.length === 0 ? 0 : Math.min(...rows.map((r) => new Date(r.checked_at).getTime())) / 1000);
    },
  });
}
