// `peerpay operator list` (DESIGN §17): the operators, with their role and whether they are active.
import type { Command } from 'commander';
import type { CliContext } from '../../cli-context.js';
import type { Operator } from '../../operator-api.js';
import { asOperator, operatorSession } from './session.js';

export function operatorsTable(operators: Operator[]): string {
  if (operators.length === 0) return 'No operators yet (the service’s OPERATOR_TOKEN is the bootstrap admin).';
  const header = ['NAME', 'ROLE', 'STATUS', 'CREATED', 'ID'];
  const rows = operators.map((o) => [o.name, o.role, o.disabledAt ? `disabled ${o.disabledAt}` : 'active', o.createdAt, o.id]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((cells) =>
      cells
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function listOperatorsCommand(group: Command, ctx: CliContext): void {
  group
    .command('list')
    .description('the operators: name, role, active or disabled (viewer role or above)')
    .action(async () => {
      const api = operatorSession(ctx);
      const answer = await asOperator(ctx, () => api.listOperators());
      ctx.out(answer, operatorsTable(answer.operators));
    });
}
