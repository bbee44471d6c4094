// State shared while reading one file: where things are, and the problems found so far.
import type { Node } from 'jsonc-parser';
import { LineIndex, problemAt } from './positions';
import type { ConfigFix, ConfigProblem, LayerSpec, ProblemSeverity, SourceRange } from './types';
import type { VariableIssue } from './variables';

/** A problem about one `${…}` token inside a string value. */
export type LocatedIssue = Omit<VariableIssue, 'code' | 'index'> & { code: string };

/** Collects problems for one file, located by syntax-tree node or range. */
export class ParseContext {
  readonly problems: ConfigProblem[] = [];

  constructor(readonly spec: LayerSpec, readonly index: LineIndex) {}

  /** The source range a node covers. */
  rangeOf(node: Node): SourceRange {
    return this.index.range(node.offset, node.length);
  }

  /** Records a problem at a node or range. */
  report(at: Node | SourceRange, severity: ProblemSeverity, code: string, message: string, fix?: ConfigFix): void {
    const range = 'file' in at ? at : this.rangeOf(at);
    const problem = problemAt(range, severity, code, message);
    this.problems.push(fix !== undefined ? { ...problem, fix } : problem);
  }

  /**
   * Records variable issues found in a string node's value, each at its `${…}` text when that text appears
   * verbatim in the source (it does unless the user escaped its characters), else at the whole string.
   */
  reportVariableIssues(node: Node, issues: readonly LocatedIssue[]): void {
    const raw = this.index.text.slice(node.offset, node.offset + node.length);
    const searchFrom = new Map<string, number>();
    for (const issue of issues) {
      const at = raw.indexOf(issue.token, searchFrom.get(issue.token) ?? 0);
      if (at >= 0) searchFrom.set(issue.token, at + issue.token.length);
      const range = at >= 0 ? this.index.range(node.offset + at, issue.token.length) : this.rangeOf(node);
      this.report(range, issue.severity, issue.code, issue.message);
    }
  }
}
