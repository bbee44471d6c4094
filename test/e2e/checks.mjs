// A tiny sequential check list for the e2e flow: each check passes or fails with its reason; a failed
// gate (a step later ones depend on, like opening the sidebar) turns the remaining checks into skips.
export class CheckList {
  constructor(log) {
    this.log = log;
    this.results = [];
    this.blocked = undefined;
  }

  get failed() {
    return this.results.filter((r) => r.status === 'failed').length;
  }

  async check(title, fn, { gate = false } = {}) {
    if (this.blocked) {
      this.results.push({ title, status: 'pending', reason: `skipped: "${this.blocked}" failed` });
      this.log(`  - ${title} (skipped)`);
      return false;
    }
    const t0 = Date.now();
    try {
      await fn();
      this.results.push({ title, status: 'passed', ms: Date.now() - t0 });
      this.log(`  ✔ ${title} (${Date.now() - t0} ms)`);
      return true;
    } catch (err) {
      const error = String(err?.message ?? err).split('\n').slice(0, 8).join('\n');
      this.results.push({ title, status: 'failed', error, ms: Date.now() - t0 });
      this.log(`  ✘ ${title}\n      ${error.replace(/\n/g, '\n      ')}`);
      if (gate) this.blocked = title;
      return false;
    }
  }

  gate(title, fn) {
    return this.check(title, fn, { gate: true });
  }

  /** An error outside any check (harness failure, timeout): counted as one failed check. */
  error(err) {
    const error = String(err?.stack ?? err);
    this.results.push({ title: 'e2e harness', status: 'failed', error });
    this.log(`  ✘ e2e harness: ${error}`);
  }

  summary() {
    const count = (status) => this.results.filter((r) => r.status === status).length;
    return {
      passed: count('passed'),
      failed: count('failed'),
      pending: count('pending'),
      failures: this.results.filter((r) => r.status === 'failed').map(({ title, error }) => ({ title, error })),
      checks: this.results,
    };
  }
}
