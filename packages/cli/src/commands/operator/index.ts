// `peerpay operator …` (DESIGN §17): the operator commands, with PEERPAY_URL and an operator token
// (PEERPAY_OPERATOR_TOKEN), one module each.
import type { Command } from 'commander';
import type { CliContext } from '../../cli-context.js';
import { addOperatorCommand } from './add.js';
import { disableOperatorCommand } from './disable.js';
import { listOperatorsCommand } from './list.js';
import { OPERATOR_TOKEN_ENV } from './session.js';

export function operatorCommand(program: Command, ctx: CliContext): void {
  const group = program
    .command('operator')
    .description(`manage operators: add, list, disable (needs an operator token in ${OPERATOR_TOKEN_ENV})`);
  addOperatorCommand(group, ctx);
  listOperatorsCommand(group, ctx);
  disableOperatorCommand(group, ctx);
}
