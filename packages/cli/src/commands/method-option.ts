// --method, as `peerpay quote` and `send` take it: how a fiat transfer is paid.
import { Option } from 'commander';

export const methodOption = () =>
  new Option('--method <method>', 'fiat: instant (card, default) or ach (bank debit)').choices(['instant', 'ach']);
