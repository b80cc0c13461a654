// Who may use the operator surfaces (/admin/*, DESIGN §17; decisions 0030 and 0034).
// authenticateOperator is the one place that decides, from the Authorization header: the operator
// service (compliance/operators) knows the bootstrap OPERATOR_TOKEN (audited as `env`) and the
// operators' own `po_` tokens, looked up by their hash, a disabled operator's exactly as an unknown one.
//
// Without a valid credential an operator route answers exactly as a path that does not exist (the
// not-found handler answers it), so nothing tells an outsider that /admin/* is there, or how to
// authenticate: no WWW-Authenticate, no realm, no rate-limit headers (unknown paths carry none;
// the operator's own requests are limited once authenticated). The decision runs in preValidation,
// where an unknown path has been through the same hooks and body parsing, and before any schema of
// the route could answer a 400 that an unknown path would not.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Actor } from '../../compliance/audit/audit-log.js';
import type { Operators } from '../../compliance/operators/operators-service.js';
import { roleAllows, type Operator, type OperatorRole } from '../../compliance/operators/operator-roles.js';
import { AppError, assert } from '../../platform/errors.js';
import type { App } from '../types.js';

export { OPERATOR_ROLES, roleAllows, type Operator, type OperatorRole } from '../../compliance/operators/operator-roles.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator an /admin/* route was authenticated for; null elsewhere. */
    operator: Operator | null;
  }
}

export type OperatorAuthenticator = (authorization: string | undefined) => Promise<Operator | null>;

export function createOperatorAuthenticator(deps: { operators: Pick<Operators, 'authenticate'> }): OperatorAuthenticator {
  return async function authenticateOperator(authorization) {
    const presented = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
    return deps.operators.authenticate(presented);
  };
}

export interface OperatorGateDeps {
  config: Pick<Config, 'rateLimits'>;
  operators: Pick<Operators, 'authenticate'>;
}

/**
 * The route options that put a route under operator authentication for operators of at least
 * `role` (viewer unless named): the global per-client rate limit off (it would add headers an
 * unknown path does not have), the gate in preValidation, then (preHandler) a limit per operator.
 * A valid operator whose role is too low gets 403 operator_forbidden: unlike an outsider, an
 * operator knows the surface exists.
 */
export function operatorOnly(app: App, deps: OperatorGateDeps) {
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

/** Who acts and in which request: what every operator write records (the route is under operatorOnly). */
export function operatorOf(request: FastifyRequest): Actor {
  assert(request.operator, 'an operator route runs for an authenticated operator');
  return { operator: request.operator.name, requestId: request.id };
}
