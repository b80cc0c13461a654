// Rules shared by more than one endpoint.
import type { Currency } from '../currency.js';
import { parameterError } from '../errors.js';

/** ACH debits (us_bank_account) are USD only; a setup session for one must say so with currency=usd. */
export function currencyRequiredForBank(currency: Currency | undefined): void {
  if (currency === undefined) {
    throw parameterError('Missing required param: currency. `currency` is required when payment_method_types includes us_bank_account.', {
      code: 'parameter_missing',
      param: 'currency',
    });
  }
  if (currency !== 'usd') {
    throw parameterError(`The currency provided (${currency}) is invalid. us_bank_account supports only usd.`, { param: 'currency' });
  }
}
