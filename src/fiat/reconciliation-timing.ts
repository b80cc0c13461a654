// Processors tell peerpay what happened by webhook; anything a webhook has not settled is read back
// from the processor once it has been open this long (DESIGN §11), and again at this interval.
export const RECONCILE_AFTER_MS = 15 * 60 * 1000;
