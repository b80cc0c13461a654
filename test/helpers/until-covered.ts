// A property test that insists its generator exercised every path (so many refusals, so many
// takeovers...) would fail now and then on an unlucky seed if it ran a fixed number of times. It
// runs in rounds instead, each with a fresh seed, until every count is reached or the rounds run
// out; the test's own expectations then say which path was missed, so a generator that cannot
// reach a path still fails.

/** Runs `round` (one fc.assert) until `covered()` holds, at most `maxRounds` times. */
export async function runUntilCovered(round: () => Promise<void>, covered: () => boolean, maxRounds = 4): Promise<void> {
  for (let i = 0; i < maxRounds; i++) {
    await round();
    if (covered()) return;
  }
}
