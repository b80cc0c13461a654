// Per-account limits (DESIGN §17): GET /account/limits shows the caller its effective limits and
// what it used, so that an agent can tell its user before trying; PUT /admin/accounts/{id}/limits
// lets an operator (support or above) set or clear one account's limits in one currency, audited.
import { Type } from 'typebox';
import type { AccountLimits, LimitLine } from '../../compliance/limits/limits-service.js';
import { LIMITED_ASSETS } from '../../config/limit-settings.js';
import { parseAmount } from '../../money/amount.js';
import { exponentOf, type Asset } from '../../money/assets.js';
import { AppError } from '../../platform/errors.js';
import { callerOf } from '../plugins/auth.js';
import { operatorOf, operatorOnly, type OperatorGateDeps } from '../plugins/operator-auth.js';
import { StringEnum } from '../schemas/common.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';

const Decimal = (description: string) => Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$', description });

const LimitLineSchema = Type.Object(
  {
    rail: StringEnum(['fiat', 'stablecoin'], { description: 'The rail the currency or token moves on' }),
    currency: StringEnum([...LIMITED_ASSETS]),
    window: StringEnum(['day', 'month'], { description: '`day`: a rolling 24 hours; `month`: a rolling 30 days' }),
    limit: Decimal('The most the account may send in the window, fees included'),
    used: Decimal('What it sent in the window (failed movements not counted)'),
    remaining: Decimal('What it may still send now'),
  },
  { additionalProperties: false },
);

const LimitsResponse = Type.Object(
  { limits: Type.Array(LimitLineSchema) },
  {
    additionalProperties: false,
    examples: [
      {
        limits: [
          { rail: 'fiat', currency: 'USD', window: 'day', limit: '10000.00', used: '250.00', remaining: '9750.00' },
          { rail: 'fiat', currency: 'USD', window: 'month', limit: '50000.00', used: '1250.00', remaining: '48750.00' },
          { rail: 'stablecoin', currency: 'USDC', window: 'day', limit: '10000', used: '12.5', remaining: '9987.5' },
          { rail: 'stablecoin', currency: 'USDC', window: 'month', limit: '50000', used: '12.5', remaining: '49987.5' },
        ],
      },
    ],
  },
);

const LimitValue = Type.Union([Type.String({ minLength: 1, maxLength: 32 }), Type.Number({ minimum: 0 }), Type.Null()], {
  description: 'Major units (a decimal string or a number); null goes back to the default',
});
const OverrideBody = Type.Object(
  {
    currency: StringEnum([...LIMITED_ASSETS]),
    day: Type.Optional(LimitValue),
    month: Type.Optional(LimitValue),
    note: Type.String({ minLength: 1, maxLength: 1000, description: 'Why: kept in the audit log' }),
  },
  { additionalProperties: false },
);

export interface LimitsRouteDeps extends OperatorGateDeps {
  limits: AccountLimits;
}

export function limitsRoutes(app: App, deps: LimitsRouteDeps): void {
  app.get(
    '/account/limits',
    operation({
      operationId: 'getAccountLimits',
      tag: 'account',
      summary: 'The caller’s limits on what it sends, and what it used',
      description:
        'Per rail and currency or token, over a rolling 24 hours (`day`) and 30 days (`month`): the effective limit (an account younger than 7 days has a tenth of the usual ones), what was sent (transfers with their fees, withdrawals and payouts; failed ones give their volume back) and what remains. A transfer, withdrawal or quote beyond what remains answers 429 `limit_exceeded`. Amounts are decimal strings.',
      auth: 'required',
      responses: { 200: LimitsResponse },
      errors: [],
    }),
    async (request) => ({ limits: await deps.limits.lines(callerOf(request).accountId) }),
  );

  const forOperators = operatorOnly(app, deps);
  app.put(
    '/admin/accounts/:id/limits',
    forOperators(
      operation({
        operationId: 'setAccountLimits',
        tag: 'service',
        summary: 'Set or clear one account’s limits in one currency (operator)',
        auth: 'public',
        published: false,
        readsBody: true,
        params: Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'The account id' }) }),
        body: OverrideBody,
        responses: { 200: LimitsResponse },
        errors: ['invalid_request', 'invalid_amount', 'not_found', 'operator_forbidden'],
      }),
      'support',
    ),
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      if (body.day === undefined && body.month === undefined)
        throw new AppError('invalid_request', 'Give `day`, `month` or both (null goes back to the default).');
      const currency = body.currency;
      const limits: LimitLine[] = await deps.limits.setOverride(
        {
          accountId: Number(id),
          currency,
          ...(body.day !== undefined ? { day: limitOf(body.day, currency, 'day') } : {}),
          ...(body.month !== undefined ? { month: limitOf(body.month, currency, 'month') } : {}),
          note: body.note,
        },
        operatorOf(request),
      );
      return { limits };
    },
  );
}

/** A limit as sent: null (back to the default), zero (nothing may leave) or an amount. */
function limitOf(value: string | number | null, currency: Asset, window: string): bigint | null {
  if (value === null) return null;
  if (value === 0 || (typeof value === 'string' && /^0+(\.0+)?$/.test(value.trim()))) return 0n;
  const parsed = parseAmount(value, currency, 1_000_000_000_000n);
  if (parsed.ok) return parsed.minor;
  throw new AppError(
    'invalid_amount',
    parsed.problem === 'too_many_decimals'
      ? `\`${window}\`: ${currency} amounts have at most ${exponentOf(currency)} decimals.`
      : `\`${window}\` must be an amount of zero or more in ${currency} (major units), or null.`,
  );
}
