// The Accounts page's actions (DESIGN §17, §18): freeze, unfreeze, limits, deposit release (support)
// and debt write-off (admin), each through the service the operator API calls (the same audit
// entry, in the same transaction as the change). Refused input: the account page again with the
// reason and 400, nothing changed; success: back to the account page, which lists the entry.
import { LIMITED_ASSETS } from '../../config/limit-settings.js';
import { parseAmount } from '../../money/amount.js';
import { exponentOf, FIAT_CURRENCIES, type Asset, type FiatCurrency } from '../../money/assets.js';
import type { ConsoleAnswer, ConsoleRequest, ConsoleRoute } from '../console-route.js';
import { readActionForm } from '../forms.js';
import { accountIdParam, accountPage, type AccountPagesDeps } from './account-page.js';
import { actorOf, attempt } from './page-parts.js';

type Perform = (accountId: number, note: string, request: ConsoleRequest) => Promise<unknown>;
/** Where the browser goes after the action: a page that shows the audit entry it wrote. */
type Next = (accountId: number, request: ConsoleRequest) => string;

const toAccountPage: Next = (accountId) => `/console/accounts/${accountId}`;

/** An account action: the note and confirmation, then `perform`; a refusal re-renders the page with 400 (404 for an unknown id). */
async function accountAction(deps: AccountPagesDeps, request: ConsoleRequest, perform: Perform, next: Next): Promise<ConsoleAnswer> {
  const accountId = accountIdParam(request.params.id);
  if (accountId === null) return accountPage(deps, request);
  const form = readActionForm(request.form);
  if ('refused' in form) return accountPage(deps, request, { reason: form.refused, status: 400 });
  const outcome = await attempt(() => perform(accountId, form.note, request));
  if ('refused' in outcome) return accountPage(deps, request, { reason: outcome.refused, status: outcome.notFound ? 404 : 400 });
  return { redirect: next(accountId, request) };
}

class Refused extends Error {}

/** A refusal of the form's own fields, raised before anything is called. */
function refuse(reason: string): never {
  throw new Refused(reason);
}

/** Runs `handle`, turning a Refused into the page again with the reason and 400. */
function withRefusals(deps: AccountPagesDeps, handle: (request: ConsoleRequest) => Promise<ConsoleAnswer>) {
  return async (request: ConsoleRequest): Promise<ConsoleAnswer> => {
    try {
      return await handle(request);
    } catch (error) {
      if (error instanceof Refused) return accountPage(deps, request, { reason: error.message, status: 400 });
      throw error;
    }
  };
}

/** A limit box: empty leaves the window as it is, `default` clears the override, else an amount of zero or more. */
export function limitValue(text: string | undefined, currency: Asset, window: string): bigint | null | undefined {
  const value = (text ?? '').trim();
  if (value === '') return undefined;
  if (value.toLowerCase() === 'default') return null;
  if (/^0+(\.0+)?$/.test(value)) return 0n;
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) refuse(`The ${window} limit must be an amount in ${currency}, "default" or empty.`);
  const parsed = parseAmount(value, currency, 1_000_000_000_000n);
  if (parsed.ok) return parsed.minor;
  refuse(
    parsed.problem === 'too_many_decimals'
      ? `${currency} amounts have at most ${exponentOf(currency)} decimals.`
      : `The ${window} limit is not an amount peerpay can set.`,
  );
}

function setLimits(deps: AccountPagesDeps): Perform {
  return async (accountId, note, request) => {
    const currency = LIMITED_ASSETS.find((a) => a === request.form.currency) ?? refuse('Choose a currency or token.');
    const day = limitValue(request.form.day, currency, 'day');
    const month = limitValue(request.form.month, currency, 'month');
    if (day === undefined && month === undefined) refuse('Give a day limit, a month limit or both ("default" clears one).');
    const change = { accountId, currency, note, ...(day !== undefined ? { day } : {}), ...(month !== undefined ? { month } : {}) };
    return deps.limits.setOverride(change, actorOf(request));
  };
}

export function accountActionRoutes(deps: AccountPagesDeps): ConsoleRoute[] {
  const post = (url: string, role: ConsoleRoute['role'], perform: Perform, next = toAccountPage): ConsoleRoute => ({
    method: 'POST',
    url,
    role,
    handle: withRefusals(deps, (request) => accountAction(deps, request, perform, next)),
  });
  return [
    post('/console/accounts/:id/freeze', 'support', (accountId, note, request) => {
      const scope =
        request.form.scope === 'all' || request.form.scope === 'payouts' ? request.form.scope : refuse('Choose the scope: all or payouts.');
      return deps.freezes.freeze({ accountId, scope, note }, actorOf(request));
    }),
    post('/console/accounts/:id/unfreeze', 'support', (accountId, note, request) =>
      deps.freezes.unfreeze({ accountId, note }, actorOf(request)),
    ),
    post('/console/accounts/:id/limits', 'support', setLimits(deps)),
    post(
      '/console/accounts/:id/deposits/:depositId/release',
      'support',
      async (accountId, note, request) => {
        const depositId = request.params.depositId ?? '';
        // Only this account's blocked deposits are released from its page.
        const own = await deps.activity.blockedDeposits(accountId);
        if (!own.some((d) => d.id === depositId)) refuse(`Account ${accountId} has no blocked deposit ${depositId.slice(0, 64)}.`);
        return deps.releases.release({ depositId, note }, actorOf(request));
      },
      // Its audit entry's target is the deposit.
      (_accountId, request) => `/console/audit?target=${encodeURIComponent(request.params.depositId ?? '')}`,
    ),
    post('/console/accounts/:id/write-off', 'admin', (accountId, note, request) => {
      const currency: FiatCurrency = FIAT_CURRENCIES.find((c) => c === request.form.currency) ?? refuse('Choose a currency.');
      return deps.writeOffs.writeOff({ accountId, currency, note }, actorOf(request));
    }),
  ];
}
