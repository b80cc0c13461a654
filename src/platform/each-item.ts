// A job round works on a batch of items. One item's failure (the processor or the chain down for
// it) must not stop the others: every item is tried, and the first failure is rethrown at the end
// so that the job runner logs it. A failed item keeps its lease or due date and is tried again in a
// later round.
export async function forEachItem<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let firstFailure: { error: unknown } | null = null;
  for (const item of items) {
    try {
      await work(item);
    } catch (error) {
      firstFailure ??= { error };
    }
  }
  if (firstFailure !== null) throw firstFailure.error;
}
