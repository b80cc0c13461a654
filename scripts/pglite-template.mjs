// Writes dist/pglite-template.tar.gz from the compiled dist/ (see src/startup/pglite-template.ts):
// a migrated, empty PGlite cluster that a first start unpacks instead of creating one. Run by
// `npm ci` (scripts/prepare.mjs) and `npm run build`. A failure is one warning line, not a failed
// install: the first start then creates its cluster itself, a few seconds slower.
import { writePgliteTemplate } from '../dist/startup/pglite-template.js';

try {
  const started = Date.now();
  const bytes = await writePgliteTemplate();
  console.log(`peerpay: dist/pglite-template.tar.gz (${Math.round(bytes / 1024)} KiB, ${Date.now() - started} ms)`);
} catch (error) {
  console.warn(
    `peerpay: no PGlite template was made (${error instanceof Error ? error.message : String(error)}); a first start creates its database itself`,
  );
}
