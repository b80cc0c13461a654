// A module loaded on first use instead of at start (decision 0054): concurrent first callers share
// one load, and a load that failed is forgotten, so the next caller tries again instead of every
// later caller failing for ever.

/** `load` run at most once at a time; its result kept once it succeeded. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
