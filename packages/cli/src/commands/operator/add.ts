// `peerpay operator add NAME --role viewer|support|admin [--note …]` (DESIGN §17): makes an operator
// and prints its API token, once, with the one-time console enrolment link.
import { Option, type Command } from 'commander';
import type { CliContext } from '../../cli-context.js';
import { OPERATOR_ROLES, type CreatedOperator, type OperatorRole } from '../../operator-api.js';
import { asOperator, auditNote, operatorSession } from './session.js';

export function describeCreated(created: CreatedOperator): string {
  const { operator } = created;
  return [
    `Operator "${operator.name}" (${operator.role}) created: ${operator.id}.`,
    'API token, shown only this once (peerpay keeps only its hash): store it now, e.g. in a password manager:',
    `  ${created.token}`,
    `Console enrolment link (single use, valid 24 hours): ${created.enrolmentUrl}`,
  ].join('\n');
}

export function addOperatorCommand(group: Command, ctx: CliContext): void {
  group
    .command('add')
    .description('make an operator (admin role needed); prints its token once and a console enrolment link')
    .argument('<name>', 'the operator’s name, as the audit log will show it')
    .addOption(new Option('--role <role>', 'what it may do').choices(OPERATOR_ROLES).makeOptionMandatory())
    .option('--note <note>', 'why, for the audit log (asked on the terminal when left out)')
    .action(async (name: string, options: { role: OperatorRole; note?: string }) => {
      const api = operatorSession(ctx);
      const note = await auditNote(options.note);
      const created = await asOperator(ctx, () => api.createOperator({ name, role: options.role, note }));
      if (ctx.json()) process.stderr.write('The token is shown only this once: store it now.\n');
      ctx.out(created, describeCreated(created));
    });
}
