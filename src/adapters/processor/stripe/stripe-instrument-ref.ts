// A bank debit at Stripe needs two references: the saved us_bank_account PaymentMethod and the
// mandate the customer accepted for it. peerpay stores one opaque instrument reference per
// instrument, so the Stripe adapter joins the two with a character that no Stripe id contains.
const SEPARATOR = '/';

export function bankDebitInstrumentRef(input: { paymentMethod: string; mandate: string }): string {
  return `${input.paymentMethod}${SEPARATOR}${input.mandate}`;
}

export function parseBankDebitInstrumentRef(ref: string): { paymentMethod: string; mandate: string } {
  const [paymentMethod, mandate, ...rest] = ref.split(SEPARATOR);
  if (!paymentMethod || !mandate || rest.length > 0) throw new Error('a Stripe bank debit instrument names a payment method and a mandate');
  return { paymentMethod, mandate };
}
