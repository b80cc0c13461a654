// The operator identities and the audit log in the operator API (DESIGN §17).
import { Type } from 'typebox';
import { OPERATOR_NAME_PATTERN, OPERATOR_ROLES } from '../../compliance/operators/operator-roles.js';
import { MAX_AUDIT_PAGE } from '../../compliance/audit/audit-repository.js';
import { AUDIT_ACTIONS } from '../../compliance/audit/audit-log.js';
import { StringEnum } from './common.js';

const OPERATOR_ID_EXAMPLE = 'op_4fZk8Q2WnYb7cT1R9xLmP3';
const At = (description: string) => Type.String({ format: 'date-time', description, examples: ['2026-11-26T14:10:00.000Z'] });

export const OperatorRoleSchema = StringEnum(OPERATOR_ROLES, {
  description:
    '`viewer` reads; `support` also freezes, unfreezes, sets limits and releases blocked deposits; `admin` also refunds, writes off, reverses payouts and manages operators',
});

export const OperatorName = Type.String({
  pattern: OPERATOR_NAME_PATTERN,
  description: '1 to 64 letters, digits, `.`, `-` or `_`; unique whatever the case; `env` and `system` are reserved',
  examples: ['alice'],
});

const NewOperatorView = Type.Object({
  id: Type.String({ examples: [OPERATOR_ID_EXAMPLE] }),
  name: OperatorName,
  role: OperatorRoleSchema,
  createdAt: At('When the operator was made'),
});

const OperatorView = Type.Object({
  id: Type.String({ examples: [OPERATOR_ID_EXAMPLE] }),
  name: OperatorName,
  role: OperatorRoleSchema,
  createdAt: At('When the operator was made'),
  disabledAt: Type.Union([At('When the operator was disabled'), Type.Null()]),
});

export const CreatedOperatorResponse = Type.Object({
  operator: NewOperatorView,
  token: Type.String({
    pattern: '^po_[0-9A-Za-z]{43}$',
    description: "The operator's API token (`Authorization: Bearer po_…`), shown this once: only its hash is kept",
    examples: ['po_7Hq2NcX9vLr4TbW1mKp8ZsD3fGy6Ja0Ue5RiOw2Bn4Q'],
  }),
  enrolmentUrl: Type.String({
    format: 'uri',
    description: 'A one-time console enrolment link (password and TOTP), valid 24 hours',
    examples: ['https://peerpay.example.com/console/enrol/5Rk2Yq8NwT1cLm4Xb7Vz0Ps9Hd3Gf6Ja2Ue5RiOw8Bn1'],
  }),
});

export const OperatorResponse = Type.Object({ operator: OperatorView });
export const OperatorsResponse = Type.Object({ operators: Type.Array(OperatorView) });

export const OperatorIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, examples: [OPERATOR_ID_EXAMPLE] }) });

export const AuditQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        pattern: '^(0|[1-9][0-9]{0,17})$',
        description: 'The id of the last entry seen: the entries after it; omitted, from the first',
        examples: ['41'],
      }),
    ),
    limit: Type.Optional(
      Type.String({
        pattern: '^([1-9][0-9]?|1[0-9][0-9]|200)$',
        description: `page size, a whole number from 1 to ${MAX_AUDIT_PAGE}; default 50`,
        examples: ['50'],
      }),
    ),
    operator: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "An operator's name (any case), `env` or `system`" })),
    target: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The id acted on' })),
  },
  { additionalProperties: false },
);

const AuditEntry = Type.Object({
  id: Type.String({ description: 'Pass as `after` to read on from this entry', examples: ['42'] }),
  at: At('When the change was made'),
  operator: Type.String({
    description: "The operator's name; `env` for OPERATOR_TOKEN, `system` for an automatic control",
    examples: ['alice'],
  }),
  action: Type.String({ description: `One of ${AUDIT_ACTIONS.join(', ')}`, examples: ['operator.create'] }),
  target: Type.String({ description: 'The id acted on', examples: [OPERATOR_ID_EXAMPLE] }),
  before: Type.Unknown({ description: 'The state before the change (null when there was none)' }),
  after: Type.Unknown({ description: 'The state after the change' }),
  note: Type.String({ description: 'Why, as the operator gave it' }),
  requestId: Type.Union([Type.String(), Type.Null()], { description: 'The request that made the change; null for an automatic control' }),
});

export const AuditResponse = Type.Object({ entries: Type.Array(AuditEntry) });
