// Account routes: registration (both rails), existence check and lookups here; keys and password
// (account-key-routes.ts) and the profile and wallet (account-profile-routes.ts) are registered
// from here, in the same scope.
import type { AccountQuery as AccountLookup } from '../../accounts/accounts-service.js';
import type { Accounts } from '../../accounts/accounts.js';
import { firstNameOf } from '../../accounts/account-rules.js';
import { AppError } from '../../platform/errors.js';
import {
  AccountQuery,
  AgentRegistration,
  CheckResult,
  LookupResult,
  RegisterBody,
  StablecoinRegistration,
} from '../schemas/account-schemas.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
import { keyRoutes } from './account-key-routes.js';
import { profileRoutes } from './account-profile-routes.js';
import type { AccountProfileServices } from './account-profile-routes.js';
import type { Config } from '../../config.js';

/** What these routes call, and the registration and check routes' rate limits. */
export type AccountRoutesServices = AccountProfileServices & { rateLimits: Config['rateLimits'] };

const REGISTRATION_ERRORS = [
  'invalid_email',
  'invalid_field',
  'invalid_credentials',
  'already_exists',
  'too_many_attempts',
  'busy',
  'service_unavailable',
] as const;
const REGISTRATION_TEXT =
  '201 creates the account, its stablecoin wallet and a key. 200 issues one more key to an existing account whose password matches. ' +
  'E-mail local parts are plain ASCII and domains are compared in their IDNA ASCII form; control, zero-width and bidirectional-override characters are refused (400 `invalid_email`, or `invalid_field` in the name). ' +
  '401 `invalid_credentials`; 429 `too_many_attempts` once LOGIN_MAX_FAILURES attempts were made in the window (parallel ones count); 503 `busy` with Retry-After when too many password hashes are waiting. ' +
  'With WALLET_PROVIDER=circle, 503 `service_unavailable` when Circle does not make the wallet now: registering again (the same e-mail and password) makes the same wallet.';

function queryOf(query: { email?: string | undefined; handle?: string | undefined }): AccountLookup {
  if (query.email !== undefined && query.handle === undefined) return { email: query.email };
  if (query.handle !== undefined && query.email === undefined) return { handle: query.handle };
  throw new AppError('invalid_request', 'Give exactly one of the query parameters email or handle.');
}

/** A route limited by the budget of its group instead of the default, per-route one. */
type Limited = ReturnType<typeof groupLimiter>;

// One budget per client address for each group of routes that do the same thing: a limit set on
// each route (config.rateLimit) would give every path its own count, so that alternating
// /agent/register and /stablecoin/register doubled the registrations an address may make. The
// routes turn the default limit off and run the group's limiter as an onRequest hook instead.
// Each group's keys are its own: the counts live in one store (shared in Redis across a fleet).
function groupLimiter(app: App, group: string, perMinute: number) {
  const limiter = app.rateLimit({ max: perMinute, timeWindow: 60_000, keyGenerator: (request) => `${group}:ip:${request.ip}` });
  return <O extends { config: object }>(options: O) => ({
    ...options,
    config: { ...options.config, rateLimit: false as const },
    onRequest: limiter,
  });
}

export async function accountRoutes(app: App, services: AccountRoutesServices): Promise<void> {
  const { accounts } = services;
  const { registerPerMinute, checkPerMinute } = services.rateLimits;
  const registerLimited = groupLimiter(app, 'register', registerPerMinute);
  const checkLimited = groupLimiter(app, 'check', checkPerMinute);
  registrationRoutes(app, accounts, registerLimited);
  checkRoute(app, accounts, checkLimited);
  lookupRoutes(app, accounts, checkLimited);
  keyRoutes(app, accounts);
  profileRoutes(app, services);
}

/** POST /agent/register and POST /stablecoin/register: one registration, described for each rail. */
function registrationRoutes(app: App, accounts: Accounts, limited: Limited): void {
  const registration = (operationId: string, summary: string, response: typeof AgentRegistration | typeof StablecoinRegistration) =>
    limited(
      operation({
        operationId,
        tag: 'account',
        summary,
        description: REGISTRATION_TEXT,
        auth: 'public',
        readsBody: true,
        body: RegisterBody,
        responses: { 200: response, 201: response },
        errors: REGISTRATION_ERRORS,
      }),
    );

  app.post(
    '/agent/register',
    registration('registerAgent', 'Register, or obtain a new API key for an existing account', AgentRegistration),
    async (request, reply) => {
      const result = await accounts.register(request.body);
      reply.code(result.isNewAccount ? 201 : 200);
      return {
        apiKey: result.apiKey,
        agentHandle: result.account.handle,
        stablecoinWalletId: result.account.walletId ?? '',
        depositAddress: result.account.depositAddress ?? '',
        isNewAccount: result.isNewAccount,
      };
    },
  );

  app.post(
    '/stablecoin/register',
    registration('registerStablecoinAccount', 'Register (stablecoin description of the same registration)', StablecoinRegistration),
    async (request, reply) => {
      const result = await accounts.register(request.body);
      reply.code(result.isNewAccount ? 201 : 200);
      return {
        apiKey: result.apiKey,
        stablecoinWalletId: result.account.walletId ?? '',
        handle: result.account.handle,
        email: result.account.email,
        depositAddress: result.account.depositAddress ?? '',
        isNewAccount: result.isNewAccount,
      };
    },
  );
}

/** GET /agents/check: whether an account exists. */
function checkRoute(app: App, accounts: Accounts, limited: Limited): void {
  app.get(
    '/agents/check',
    limited(
      operation({
        operationId: 'checkAccount',
        tag: 'account',
        summary: 'Does an account exist? Public; works with or without a key',
        description: 'Give exactly one of `email` or `handle`.',
        auth: 'optional',
        querystring: AccountQuery,
        responses: { 200: CheckResult },
        errors: ['invalid_email'],
      }),
    ),
    async (request) => {
      const query = queryOf(request.query);
      const account = await accounts.find(query);
      if (!account) return { exists: false, found: false };
      return {
        exists: true,
        found: true,
        firstName: firstNameOf(account.name),
        agentHandle: account.handle,
        handle: account.handle,
        ...('email' in query ? { email: account.email } : {}),
      };
    },
  );
}

/** GET /agents/lookup and GET /stablecoin/lookup: find a recipient, for callers with a key. */
function lookupRoutes(app: App, accounts: Accounts, limited: Limited): void {
  const lookups = [
    { path: '/agents/lookup', operationId: 'lookupAgent', summary: 'Find a recipient by e-mail or handle' },
    { path: '/stablecoin/lookup', operationId: 'lookupStablecoinRecipient', summary: 'Find a stablecoin recipient by e-mail or handle' },
  ] as const;
  for (const lookup of lookups) {
    app.get(
      lookup.path,
      limited(
        operation({
          operationId: lookup.operationId,
          tag: 'account',
          summary: lookup.summary,
          description: 'Give exactly one of `email` or `handle`. 404 `recipient_not_found` when no account has it.',
          auth: 'required',
          querystring: AccountQuery,
          responses: { 200: LookupResult },
          errors: ['invalid_email', 'recipient_not_found'],
        }),
      ),
      async (request) => {
        const account = await accounts.find(queryOf(request.query));
        if (!account) throw new AppError('recipient_not_found', 'No account has that e-mail or handle.');
        return { found: true as const, handle: account.handle, agentHandle: account.handle, firstName: firstNameOf(account.name) };
      },
    );
  }
}
