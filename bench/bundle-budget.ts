import { LOCALES } from '../src/shared/locales.ts';
import { INITIAL_JS_BUDGET_GZIP, measureInitialBundle } from './bundle-size.ts';

// Run by `npm test` after the build: a bundle that outgrows its budget (bench 8's target)
// fails the test run, so that first-visit size cannot creep up unnoticed.
const { js, css, files, catalogs } = measureInitialBundle();
const line = `initial JS ${(js.gzip / 1024).toFixed(1)} KB gzip (budget ${INITIAL_JS_BUDGET_GZIP / 1024} KB; with the largest of ${catalogs.count} language catalogs, ${(catalogs.largestGzip / 1024).toFixed(1)} KB), CSS ${(css.gzip / 1024).toFixed(1)} KB gzip, ${files.length} files`;
// One chunk per language: fewer means a language fell out of the build (and the budget would
// be measured without it).
if (catalogs.count < LOCALES.length) {
  console.error(
    `bundle budget: ${catalogs.count} language catalogs in the build, ${LOCALES.length} expected.`,
  );
  process.exit(1);
}
if (files.length === 0 || js.gzip === 0) {
  console.error('bundle budget: dist/index.html names no /assets/ scripts; build first.');
  process.exit(1);
}
if (js.gzip > INITIAL_JS_BUDGET_GZIP) {
  console.error(`bundle budget exceeded: ${line}`);
  process.exit(1);
}
console.log(`bundle budget ok: ${line}`);
