// Injected failures. API calls: 'before' refuses a call without doing anything (5xx or 429);
// 'after' does the work (and keeps the idempotent result) and then loses the answer: a 5xx/429
// instead of it, a destroyed connection ('lost'), or no answer until the client gives up
// ('timeout'). Notifications: the next ones are dropped (never sent), duplicated (sent twice) or
// held back ('late') until deliverLate() sends them, in order or reversed.
export type ApiFault = 500 | 502 | 503 | 429 | 'lost' | 'timeout';

export interface ApiFaultRule {
  /** Any method when absent. */
  method?: 'GET' | 'POST';
  /** The exact path, or a pattern tested against it (no query string). */
  path: string | RegExp;
  fault: ApiFault;
  /** 'after' when absent for 'lost' and 'timeout', 'before' otherwise. */
  when?: 'before' | 'after';
  count?: number;
}

export type NotificationFault = 'drop' | 'duplicate' | 'late';

interface Active {
  rule: ApiFaultRule;
  remaining: number;
}

export class ApiFaultPlan {
  private rules: Active[] = [];

  add(rule: ApiFaultRule): void {
    const count = rule.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`Circle stand-in: fault count must be a positive integer`);
    if ((rule.fault === 'lost' || rule.fault === 'timeout') && rule.when === 'before') {
      throw new Error(`Circle stand-in: a '${rule.fault}' answer is lost after the work, never before it`);
    }
    this.rules.push({ rule, remaining: count });
  }

  take(method: string, path: string, when: 'before' | 'after'): ApiFault | undefined {
    const active = this.rules.find(({ rule }) => whenOf(rule) === when && (rule.method ?? method) === method && matches(rule.path, path));
    if (active === undefined) return undefined;
    active.remaining -= 1;
    if (active.remaining === 0) this.rules = this.rules.filter((r) => r !== active);
    return active.rule.fault;
  }

  remaining(): ApiFaultRule[] {
    return this.rules.map(({ rule, remaining }) => ({ ...rule, count: remaining }));
  }

  clear(): void {
    this.rules = [];
  }
}

function whenOf(rule: ApiFaultRule): 'before' | 'after' {
  return rule.when ?? (rule.fault === 'lost' || rule.fault === 'timeout' ? 'after' : 'before');
}

function matches(pattern: string | RegExp, path: string): boolean {
  if (typeof pattern === 'string') return pattern === path;
  pattern.lastIndex = 0;
  return pattern.test(path);
}

export class NotificationFaultPlan {
  private queue: NotificationFault[] = [];

  add(fault: NotificationFault, count = 1): void {
    for (let i = 0; i < count; i += 1) this.queue.push(fault);
  }

  /** The fault for the next notification made, if any. */
  take(): NotificationFault | undefined {
    return this.queue.shift();
  }

  clear(): void {
    this.queue = [];
  }
}
