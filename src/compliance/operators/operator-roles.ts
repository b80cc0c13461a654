// Operator roles (DESIGN §17), each allowing what the one below it does and more.

/** `viewer` reads; `support` also freezes, unfreezes, sets limits and releases blocked deposits; `admin` also refunds, writes off, reverses payouts and manages operators. */
export const OPERATOR_ROLES = ['viewer', 'support', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

const RANK: Record<OperatorRole, number> = { viewer: 0, support: 1, admin: 2 };

export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return RANK[role] >= RANK[needed];
}

/** Who an operator request was authenticated as. */
export interface Operator {
  /** As audit entries name it: `env` for OPERATOR_TOKEN. */
  name: string;
  role: OperatorRole;
}

/** OPERATOR_TOKEN's operator: the bootstrap admin, so that the first operator can be made on a fresh installation. */
export const ENV_OPERATOR: Operator = Object.freeze({ name: 'env', role: 'admin' });

/** Names no operator may take: the audit log uses them for OPERATOR_TOKEN and for automatic controls. */
export const RESERVED_OPERATOR_NAMES: readonly string[] = ['env', 'system'];

export const OPERATOR_NAME_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
