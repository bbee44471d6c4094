// Mocha reporter: Mocha's Spec output on the console, plus the counts written as JSON for the
// orchestrator (test/run.mjs): { passed, failed, pending, failures: [{ title, error }] }.
// Where: --reporter-option countsFile=<path>, or env SWITCHBOARD_COUNTS_FILE.
'use strict';
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options = {}) {
    super(runner, options);
    const reporterOptions = options.reporterOption || options.reporterOptions || {};
    const countsFile = reporterOptions.countsFile || process.env.SWITCHBOARD_COUNTS_FILE;
    const counts = { passed: 0, failed: 0, pending: 0, failures: [] };
    runner.on(EVENT_TEST_PASS, () => counts.passed++);
    runner.on(EVENT_TEST_PENDING, () => counts.pending++);
    runner.on(EVENT_TEST_FAIL, (test, err) => {
      counts.failed++;
      counts.failures.push({ title: test.fullTitle(), error: String((err && (err.stack || err.message)) || err) });
    });
    runner.once(EVENT_RUN_END, () => {
      if (!countsFile) return;
      fs.mkdirSync(path.dirname(countsFile), { recursive: true });
      fs.writeFileSync(countsFile, JSON.stringify(counts, null, 2));
    });
  }
}

module.exports = CountingReporter;
