// The one place that decides who an operator is (DESIGN §16 until §17's operator identities land):
// today the bearer OPERATOR_TOKEN, audited as the operator `env`. The token is compared in
// constant time, as hashes of equal length; a user's API key is not an operator token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../platform/errors.js';
import type { OperatorContext } from '../fiat/card-risk/operator-actions.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Who is calling, or 401 unauthorized; null when no operator token is configured (the routes do not exist). */
export function createOperatorCredential(operatorToken: string | undefined): ((request: FastifyRequest) => OperatorContext) | null {
  if (operatorToken === undefined) return null;
  const expected = digest(operatorToken);
  return (request) => {
    const match = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected))
      throw new AppError(
        'unauthorized',
        'Send the operator token as "Authorization: Bearer <OPERATOR_TOKEN>".',
        {},
        { 'WWW-Authenticate': 'Bearer realm="peerpay-operator"' },
      );
    return { operator: 'env', requestId: request.id };
  };
}
