// The boundary rule (DESIGN §21, .dependency-cruiser.cjs), as `npm test` runs it: every error is
// printed and fails the check; the Deps bag's warnings, the known rest of the redesign, are
// counted in one line so that the number is seen to fall.
import { createRequire } from 'node:module';
import { cruise } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const ruleSet = require('../.dependency-cruiser.cjs');
const { output } = await cruise(['src'], { ...ruleSet.options, ruleSet, validate: true });
const violations = output.summary.violations;
const errors = violations.filter((violation) => violation.rule.severity === 'error');
const bag = violations.filter((violation) => violation.rule.name === 'deps-bag');
for (const violation of errors) {
  const cycle = violation.cycle?.map((step) => step.name ?? step).join(' → ');
  console.log(`${violation.rule.name}: ${violation.from} → ${cycle ?? violation.to}`);
}
console.log(`boundaries: ${errors.length} errors; ${bag.length} modules still take the Deps bag (src/deps.ts)`);
process.exit(errors.length === 0 ? 0 : 1);
