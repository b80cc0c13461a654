// The order of test files: vitest's own (failed first, then longest first by the durations it
// cached from the last run, and, with no cache as on a fresh clone, largest first), except that
// the files known to take longest start first even without a cache. A long file started last
// leaves the other worker idle at the end of the run.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Process-level tests, restarts and the longer property tests: each takes tens of seconds. */
const LONG_FILES = [
  /\/test\/e2e\//,
  /\/test\/api\/installation-identity\.test\.ts$/,
  /\/test\/api\/stablecoin-deposits-(restart|property|watcher)\.test\.ts$/,
  /\/test\/api\/nano-settlement-recovery\.test\.ts$/,
  /\/test\/property\/ledger\.test\.ts$/,
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const known = (file: TestSpecification) => (LONG_FILES.some((pattern) => pattern.test(file.moduleId)) ? 0 : 1);
    // Array.prototype.sort is stable: the known long files move to the front in vitest's order.
    return [...sorted].sort((a, b) => known(a) - known(b));
  }
}
