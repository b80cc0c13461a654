// Account routes: registration (both rails), existence check, lookup, key revocation, profile,
// and the stablecoin wallet that every account gets at registration.
import { Type } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import * as accounts from '../../accounts/accounts-service.js';
import { firstNameOf } from '../../accounts/account-rules.js';
import { AppError } from '../../platform/errors.js';
import { callerOf } from '../plugins/auth.js';
import { EmailSchema, HandleSchema, problems } from '../schemas/common.js';
import type { App } from '../types.js';

const RegisterBody = Type.Object(
  {
    email: EmailSchema,
    password: Type.String({ minLength: 8, maxLength: 256, description: 'At least 8 characters' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required for new accounts' })),
    phone: Type.Optional(Type.String({ maxLength: 32, description: 'E.164 phone number, e.g. +14155550123' })),
  },
  { additionalProperties: false },
);

const AgentRegistration = Type.Object({
  apiKey: Type.String({ description: 'Shown once: store it at once' }),
  agentHandle: HandleSchema,
  stablecoinWalletId: Type.String(),
  depositAddress: Type.String(),
  isNewAccount: Type.Boolean(),
});

const StablecoinRegistration = Type.Object({
  apiKey: Type.String(),
  stablecoinWalletId: Type.String(),
  handle: HandleSchema,
  email: Type.String(),
  depositAddress: Type.String(),
  isNewAccount: Type.Boolean(),
});

const AccountQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 254 })),
    handle: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);

const LookupResult = Type.Object({ found: Type.Literal(true), handle: HandleSchema, agentHandle: HandleSchema, firstName: Type.String() });

const CheckResult = Type.Object({
  exists: Type.Boolean(),
  found: Type.Boolean(),
  firstName: Type.Optional(Type.String()),
  agentHandle: Type.Optional(HandleSchema),
  handle: Type.Optional(HandleSchema),
  email: Type.Optional(Type.String()),
});

const Profile = Type.Object({
  agentHandle: HandleSchema,
  email: Type.String(),
  name: Type.String(),
  phone: Type.Union([Type.String(), Type.Null()]),
  website: Type.Union([Type.String(), Type.Null()]),
  discoverable: Type.Boolean(),
  stablecoinWalletId: Type.Union([Type.String(), Type.Null()]),
  depositAddress: Type.Union([Type.String(), Type.Null()]),
});

function queryOf(query: { email?: string | undefined; handle?: string | undefined }): accounts.AccountQuery {
  if (query.email !== undefined && query.handle === undefined) return { email: query.email };
  if (query.handle !== undefined && query.email === undefined) return { handle: query.handle };
  throw new AppError('invalid_request', 'Give exactly one of the query parameters email or handle.');
}

export async function accountRoutes(app: App, deps: Deps): Promise<void> {
  const { registerPerMinute, checkPerMinute } = deps.config.rateLimits;
  // One budget per client address for each group of routes that do the same thing: a limit set on
  // each route (config.rateLimit) would give every path its own count, so that alternating
  // /agent/register and /stablecoin/register doubled the registrations an address may make. The
  // routes turn the default limit off and run the group's limiter as an onRequest hook instead.
  const byAddress = (request: { ip: string }) => `ip:${request.ip}`;
  const registerLimiter = app.rateLimit({ max: registerPerMinute, timeWindow: 60_000, keyGenerator: byAddress });
  const checkLimiter = app.rateLimit({ max: checkPerMinute, timeWindow: 60_000, keyGenerator: byAddress });
  const registerLimit = { config: { rateLimit: false as const }, onRequest: registerLimiter };
  const checkLimit = { config: { rateLimit: false as const }, onRequest: checkLimiter };

  app.post(
    '/agent/register',
    {
      ...registerLimit,
      config: { auth: 'public', ...registerLimit.config },
      schema: {
        tags: ['account'],
        summary: 'Register, or obtain a new API key for an existing account',
        description:
          '201 creates the account, its stablecoin wallet and a key. 200 issues one more key to an existing account whose password matches. ' +
          'E-mail local parts are plain ASCII and domains are compared in their IDNA ASCII form; control, zero-width and bidirectional-override characters are refused (400 `invalid_email`, or `invalid_field` in the name). ' +
          '401 `invalid_credentials`; 429 `too_many_attempts` once LOGIN_MAX_FAILURES attempts were made in the window (parallel ones count); 503 `busy` with Retry-After when too many password hashes are waiting.',
        security: [],
        body: RegisterBody,
        response: { 200: AgentRegistration, 201: AgentRegistration, ...problems(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const result = await accounts.register(deps, request.body);
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
    {
      ...registerLimit,
      config: { auth: 'public', ...registerLimit.config },
      schema: {
        tags: ['account'],
        summary: 'Register (stablecoin description of the same registration)',
        security: [],
        body: RegisterBody,
        response: { 200: StablecoinRegistration, 201: StablecoinRegistration, ...problems(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const result = await accounts.register(deps, request.body);
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

  app.get(
    '/agents/check',
    {
      ...checkLimit,
      config: { auth: 'optional', ...checkLimit.config },
      schema: {
        tags: ['account'],
        summary: 'Does an account exist? Public; works with or without a key',
        security: [],
        querystring: AccountQuery,
        response: { 200: CheckResult, ...problems(400, 401) },
      },
    },
    async (request) => {
      const query = queryOf(request.query);
      const account = await accounts.findAccount(deps, query);
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

  for (const path of ['/agents/lookup', '/stablecoin/lookup'] as const) {
    app.get(
      path,
      {
        ...checkLimit,
        schema: {
          tags: ['account'],
          summary: 'Find a recipient by e-mail or handle',
          querystring: AccountQuery,
          response: { 200: LookupResult, ...problems(400, 401, 404) },
        },
      },
      async (request) => {
        const account = await accounts.findAccount(deps, queryOf(request.query));
        if (!account) throw new AppError('recipient_not_found', 'No account has that e-mail or handle.');
        return { found: true as const, handle: account.handle, agentHandle: account.handle, firstName: firstNameOf(account.name) };
      },
    );
  }

  app.post(
    '/account/revoke-key',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke the API key used for this call',
        description: 'Wallets and funds are unaffected. Register again with e-mail and password for a new key.',
        response: { 200: Type.Object({ revoked: Type.Literal(true) }), ...problems(400, 401, 413, 415) },
      },
    },
    async (request) => {
      await accounts.revokeCallerKey(deps, callerOf(request).apiKeyId);
      return { revoked: true as const };
    },
  );

  app.post(
    '/account/password',
    {
      schema: {
        tags: ['account'],
        summary: 'Change the password',
        description:
          'Checks `currentPassword` (a wrong one counts towards the sign-in lock-out: 401 `invalid_credentials`, then 429 `too_many_attempts`) and saves `newPassword` (at least 8 characters). ' +
          'API keys keep working, the calling one and the others, as with Stripe and GitHub: a password change does not revoke keys unless `revokeOtherKeys: true` asks it to (the calling key is never revoked here; use POST /account/revoke-all-keys for that). ' +
          '`revokedKeys` says how many keys were revoked. 503 `busy` with Retry-After when too many password hashes are waiting.',
        body: Type.Object(
          {
            currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
            newPassword: Type.String({ minLength: 8, maxLength: 256, description: 'At least 8 characters' }),
            revokeOtherKeys: Type.Optional(Type.Boolean({ description: 'Also revoke every other key of the account (default false)' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ changed: Type.Literal(true), revokedKeys: Type.Integer({ minimum: 0 }) }), ...problems(400, 401, 413, 415) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { revokedKeys } = await accounts.changePassword(deps, {
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        currentPassword: request.body.currentPassword,
        newPassword: request.body.newPassword,
        revokeOtherKeys: request.body.revokeOtherKeys ?? false,
      });
      return { changed: true as const, revokedKeys };
    },
  );

  app.post(
    '/account/revoke-all-keys',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke every API key of the account, the calling one included',
        description: 'For a key that may have leaked without knowing which. Wallets and funds are unaffected; sign in again (POST /agent/register with e-mail and password) for a new key. `revoked` says how many keys were revoked.',
        response: { 200: Type.Object({ revoked: Type.Integer({ minimum: 0 }) }), ...problems(400, 401, 413, 415) },
      },
    },
    async (request) => ({ revoked: await accounts.revokeAllKeys(deps, callerOf(request).accountId) }),
  );

  app.get(
    '/account',
    { schema: { tags: ['account'], summary: 'The caller’s account', response: { 200: Profile, ...problems(401) } } },
    async (request) => {
      const account = await accounts.findAccount(deps, { handle: callerOf(request).handle });
      if (!account) throw new AppError('unauthorized', 'The account of this key no longer exists.');
      return profileOf(account);
    },
  );

  app.patch(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'Update name, phone, website or directory listing',
        body: Type.Object(
          {
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
            phone: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
            website: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
            discoverable: Type.Optional(Type.Boolean({ description: 'Listed in the public directory (/nano/search)' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Profile, ...problems(400, 401, 409, 413, 415) },
      },
    },
    async (request) => profileOf(await accounts.updateProfile(deps, callerOf(request).accountId, request.body ?? {})),
  );

  app.post(
    '/stablecoin/wallet',
    {
      schema: {
        tags: ['stablecoin'],
        summary: 'The caller’s stablecoin wallet (created at registration)',
        response: { 200: Type.Object({ walletId: Type.String(), existing: Type.Boolean(), depositAddress: Type.String() }), ...problems(400, 401, 413, 415) },
      },
    },
    async (request) => {
      const wallet = await accounts.ensureWallet(deps, callerOf(request).accountId);
      return { walletId: wallet.walletId, existing: wallet.existing, depositAddress: wallet.address };
    },
  );
}

function profileOf(account: { handle: string; email: string; name: string; phone: string | null; website: string | null; discoverable: boolean; walletId: string | null; depositAddress: string | null }) {
  return {
    agentHandle: account.handle,
    email: account.email,
    name: account.name,
    phone: account.phone,
    website: account.website,
    discoverable: account.discoverable,
    stablecoinWalletId: account.walletId,
    depositAddress: account.depositAddress,
  };
}
