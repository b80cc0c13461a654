// The route options every operator route module builds its routes with: under the operator gate
// for a role (plugins/operator-auth.ts), left out of the public OpenAPI document, answering any
// JSON object (the operator API's own document describes them), with its own error codes.
import { Type } from 'typebox';
import type { ErrorCode } from '../../platform/errors.js';
import type { operatorOnly, OperatorRole } from '../plugins/operator-auth.js';
import { operation } from '../schemas/operation.js';

export type ForOperators = ReturnType<typeof operatorOnly>;

const Anything = Type.Object({}, { additionalProperties: true });

export function adminOperation(
  forOperators: ForOperators,
  spec: { role: OperatorRole; operationId: string; summary: string; errors: readonly ErrorCode[] },
  extra: Record<string, unknown> = {},
) {
  return forOperators(
    operation({
      operationId: spec.operationId,
      tag: 'service',
      summary: spec.summary,
      // Not a user's API key: the operator's credential is checked by the gate.
      auth: 'public',
      published: false,
      responses: { 200: Anything },
      errors: [...spec.errors, 'operator_forbidden'],
      ...extra,
    }),
    spec.role,
  );
}
