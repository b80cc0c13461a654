// The boundary rule (DESIGN §21, .dependency-cruiser.cjs), as `npm test` runs it: every violation
// is printed on one line, and any fails the check.
import { createRequire } from 'node:module';
import { cruise } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const ruleSet = require('../.dependency-cruiser.cjs');
const { output } = await cruise(['src'], { ...ruleSet.options, ruleSet, validate: true });
const violations = output.summary.violations;
const errors = violations;
for (const violation of errors) {
  const cycle = violation.cycle?.map((step) => step.name ?? step).join(' → ');
  console.log(`${violation.rule.name}: ${violation.from} → ${cycle ?? violation.to}`);
}
console.log(`boundaries: ${output.summary.totalCruised} modules, ${errors.length} violations`);
process.exit(errors.length === 0 ? 0 : 1);
