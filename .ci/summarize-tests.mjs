// Prints `tests: N passed, N failed, N skipped` from vitest's JSON report.
// A test file that failed to load has no test results of its own, so it is
// counted as one failure; without it a broken import would look like a pass.
import { existsSync, readFileSync } from 'node:fs';

const path = process.argv[2] ?? '.vitest-report.json';
if (!existsSync(path)) {
  console.log('tests: 0 passed, 1 failed, 0 skipped');
  console.error(`no test report at ${path}: the test run did not complete`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(path, 'utf8'));
const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.assertionResults.length === 0);
for (const file of brokenFiles) console.error(`failed to load: ${file.name}\n${file.message}`);
const passed = report.numPassedTests;
const failed = report.numFailedTests + brokenFiles.length;
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
