/** Reads the vitest and Playwright JSON reports and prints one closing line: `Tests: N passed, N failed`. */
import fs from 'node:fs';

type Counts = { passed: number; failed: number; skipped: number };

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function vitestCounts(file: string): Counts | undefined {
  const report = readJson(file) as
    { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number } | undefined;
  if (!report) return undefined;
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
}

function playwrightCounts(file: string): Counts | undefined {
  const report = readJson(file) as
    { stats: { expected: number; unexpected: number; flaky: number; skipped: number } } | undefined;
  if (!report) return undefined;
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected, failed: unexpected + flaky, skipped };
}

const [vitestFile, playwrightFile, failedSteps] = process.argv.slice(2);
const parts = [
  ['vitest', vitestCounts(vitestFile ?? '')],
  ['playwright', playwrightCounts(playwrightFile ?? '')],
] as const;

const total: Counts = { passed: 0, failed: 0, skipped: 0 };
for (const [name, counts] of parts) {
  if (!counts) {
    console.log(`${name}: no report (did it run?)`);
    total.failed += 1;
    continue;
  }
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  total.passed += counts.passed;
  total.failed += counts.failed;
  total.skipped += counts.skipped;
}
const steps = (failedSteps ?? '').trim();
if (steps) console.log(`failed steps: ${steps}`);
console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
