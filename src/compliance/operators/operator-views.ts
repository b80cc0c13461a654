// How an operator appears in the operator API and in its audit entries: never a token or a hash.
import type { OperatorRow } from './operators-repository.js';

/** `POST /admin/operators`'s `operator` (DESIGN §17). */
export function presentNewOperator(row: OperatorRow) {
  return { id: row.id, name: row.name, role: row.role, createdAt: row.createdAt.toISOString() };
}

/** An operator in `GET /admin/operators` and in the answer to a disable. */
export function presentOperator(row: OperatorRow) {
  return { ...presentNewOperator(row), disabledAt: row.disabledAt?.toISOString() ?? null };
}

export type OperatorView = ReturnType<typeof presentOperator>;
