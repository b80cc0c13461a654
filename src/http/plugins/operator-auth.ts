// Who may use the operator surfaces (/admin/*, DESIGN §17; decision 0030). authenticateOperator
// is the one place that decides: today the bootstrap OPERATOR_TOKEN (audited as `env`); operator
// identities with their own tokens replace its inside, not its callers.
//
// Without a valid credential an operator route answers exactly as a path that does not exist (the
// not-found handler answers it), so nothing tells an outsider that /admin/* is there, or how to
// authenticate: no WWW-Authenticate, no realm, no rate-limit headers (unknown paths carry none;
// the operator's own requests are limited once authenticated). The decision runs in preValidation,
// where an unknown path has been through the same hooks and body parsing, and before any schema of
// the route could answer a 400 that an unknown path would not.
//
// The presented token and the configured one are compared as SHA-256 digests, with
// timingSafeEqual: equal lengths whatever was sent, and a comparison whose time does not depend on
// how much of the token a guess got right. Unset, the configured digest is random bytes no token
// hashes to, so the same work is done either way.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import type { App } from '../types.js';

/** DESIGN §17: `viewer` reads; `support` also freezes, unfreezes, sets limits and releases blocked deposits; `admin` also refunds, writes off, reverses payouts and manages operators. */
export const OPERATOR_ROLES = ['viewer', 'support', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

const RANK: Record<OperatorRole, number> = { viewer: 0, support: 1, admin: 2 };

export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return RANK[role] >= RANK[needed];
}

export interface Operator {
  /** As audit entries name it: `env` for OPERATOR_TOKEN. */
  name: string;
  role: OperatorRole;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator an /admin/* route was authenticated for; null elsewhere. */
    operator: Operator | null;
  }
}

export type OperatorAuthenticator = (authorization: string | undefined) => Promise<Operator | null>;

const ENV_OPERATOR: Operator = Object.freeze({ name: 'env', role: 'admin' });

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

interface OperatorTokenConfig {
  config: { treasury: Pick<Config['treasury'], 'operatorToken'> };
}

export function createOperatorAuthenticator(deps: OperatorTokenConfig): OperatorAuthenticator {
  const configured = deps.config.treasury.operatorToken;
  const expected = configured === undefined ? randomBytes(32) : digest(configured);
  return async function authenticateOperator(authorization) {
    const presented = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    const matches = timingSafeEqual(digest(presented), expected);
    return matches && configured !== undefined && presented !== '' ? ENV_OPERATOR : null;
  };
}

/**
 * The route options that put a route under operator authentication for operators of at least
 * `role` (viewer unless named): the global per-client rate limit off (it would add headers an
 * unknown path does not have), the gate in preValidation, then (preHandler) a limit per operator.
 * A valid operator whose role is too low gets 403 operator_forbidden: unlike an outsider, an
 * operator knows the surface exists.
 */
export function operatorOnly(app: App, deps: OperatorTokenConfig & { config: Pick<Config, 'rateLimits'> }) {
  const authenticateOperator = createOperatorAuthenticator(deps);
  if (!app.hasRequestDecorator('operator')) app.decorateRequest('operator', null);
  const limitPerOperator = app.rateLimit({
    max: deps.config.rateLimits.defaultPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `operator:${request.operator?.name ?? ''}`,
  });
  const gateFor = (needed: OperatorRole) => async (request: FastifyRequest, reply: FastifyReply) => {
    const operator = await authenticateOperator(request.headers.authorization);
    if (operator === null) return reply.callNotFound();
    request.operator = operator;
    if (!roleAllows(operator.role, needed))
      throw new AppError('operator_forbidden', `This needs the ${needed} role; operator ${operator.name} is ${operator.role}.`);
    return undefined;
  };
  const gates = { viewer: gateFor('viewer'), support: gateFor('support'), admin: gateFor('admin') };
  return <O extends { config: object }>(options: O, role: OperatorRole = 'viewer') => ({
    ...options,
    config: { ...options.config, rateLimit: false as const },
    preValidation: gates[role],
    preHandler: limitPerOperator,
  });
}
