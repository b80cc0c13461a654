// What is said when the shared rate limits (REDIS_URL) fall back to memory and come back: a warning
// once per outage (not once per request), an info line when Redis answers again, and the metrics
// peerpay_rate_limit_redis_up and peerpay_rate_limit_redis_fallbacks_total. No URL is logged (it
// may carry a password), only the error's class or code.
import type { FastifyBaseLogger } from 'fastify';
import type { SharedLimitsMetrics } from '../../platform/metrics.js';
import type { SharedLimitsEvents } from './rate-limit-store.js';

export function sharedLimitsEvents(metrics: SharedLimitsMetrics, log: FastifyBaseLogger): SharedLimitsEvents {
  let away = false;
  metrics.redisUp.set(1);
  return {
    fellBack(error) {
      metrics.fallbacks.inc();
      metrics.redisUp.set(0);
      if (away) return;
      away = true;
      log.warn(
        { reason: errorKind(error) },
        'Redis (REDIS_URL) does not answer: rate limits are counted in this process only until it does',
      );
    },
    recovered() {
      metrics.redisUp.set(1);
      if (!away) return;
      away = false;
      log.info('Redis (REDIS_URL) answers again: rate limits are shared again');
    },
  };
}

function errorKind(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  return error instanceof Error ? error.name : 'error';
}
