// `peerpay operator disable NAME [--note …]` (DESIGN §17): the operator's token stops working. The
// API takes an id; the command finds it by name in the list.
import type { Command } from 'commander';
import { Exit, type CliContext } from '../../cli-context.js';
import { asOperator, auditNote, operatorSession } from './session.js';

export function disableOperatorCommand(group: Command, ctx: CliContext): void {
  group
    .command('disable')
    .description('disable an operator: its token no longer works (admin role needed)')
    .argument('<name>', 'the operator’s name (peerpay operator list)')
    .option('--note <note>', 'why, for the audit log (asked on the terminal when left out)')
    .action(async (name: string, options: { note?: string }) => {
      const api = operatorSession(ctx);
      const { operators } = await asOperator(ctx, () => api.listOperators());
      const named = (o: { name: string }) => o.name.toLowerCase() === name.toLowerCase();
      const found = operators.find((o) => named(o) && !o.disabledAt);
      if (!found) {
        const disabled = operators.some(named);
        throw new Exit(
          1,
          disabled
            ? `Operator "${name}" is disabled already.`
            : `No operator is named "${name}" (\`peerpay operator list\` shows them). Nothing was changed.`,
          disabled ? 'already_disabled' : 'not_found',
        );
      }
      const note = await auditNote(options.note);
      const answer = await asOperator(ctx, () => api.disableOperator(found.id, note));
      ctx.out(
        answer ?? { operator: { ...found } },
        `Operator "${found.name}" (${found.role}, ${found.id}) is disabled: its token no longer works.`,
      );
    });
}
