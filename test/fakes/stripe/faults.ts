// Injected failures, so tests can show how peerpay behaves when Stripe is down or the answer is lost.
// 'before' refuses a request without doing anything. 'after' lets the stand-in do the work (and save
// the idempotent result) and then loses the answer: a 5xx/429 instead of it, no answer at all until
// the client's timeout ('timeout'), or a destroyed connection ('reset') — the ambiguous outcomes that
// a retry with the same Idempotency-Key resolves.
export type Fault = 500 | 502 | 503 | 429 | 'timeout' | 'reset';

export interface FaultRule {
  /** GET or POST; any method when absent. */
  method?: string;
  /** The exact path (no query string), or a pattern tested against it. */
  path: string | RegExp;
  fault: Fault;
  when: 'before' | 'after';
  /** How many matching requests fail; 1 when absent. */
  count?: number;
}

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

export class FaultPlan {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    const count = rule.count ?? 1;
    if (!Number.isInteger(count) || count < 1)
      throw new Error(`Stripe stand-in: failNext count must be a positive integer, got ${String(rule.count)}`);
    this.rules.push({ rule, remaining: count });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request at this point, using up one of its rule's count. */
  take(method: string, path: string, when: 'before' | 'after'): Fault | undefined {
    const active = this.rules.find(
      ({ rule }) => rule.when === when && (rule.method === undefined || rule.method.toUpperCase() === method) && matches(rule.path, path),
    );
    if (active === undefined) return undefined;
    active.remaining -= 1;
    if (active.remaining === 0) this.rules = this.rules.filter((r) => r !== active);
    return active.rule.fault;
  }

  /** Rules not yet used up, for a test to check that a fault it set was actually hit. */
  remaining(): FaultRule[] {
    return this.rules.map(({ rule, remaining }) => ({ ...rule, count: remaining }));
  }
}

function matches(pattern: string | RegExp, path: string): boolean {
  if (typeof pattern === 'string') return pattern === path;
  // A /g or /y pattern remembers where it last matched; start afresh each time.
  pattern.lastIndex = 0;
  return pattern.test(path);
}
