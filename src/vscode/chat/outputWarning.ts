// How a flagged tool result or resource is shown in the chat turn: what the output scan found, and
// whether the model got it with a warning, after the person released it, or not at all.
import { describeFindings, type ReviewVerdict } from '../../core/chat';
import type { OutputFinding } from '../../core/toolReview';

const VERDICT_WORDS: Record<ReviewVerdict, string> = {
  warned: 'the model received it fenced, with a warning not to follow it',
  released: 'you released it in the Sidebar; the model received it fenced, with a warning',
  withheld: 'you withheld it in the Sidebar; the model was told why, not what it said',
};

/** A quoted Markdown block naming the source, the findings and the verdict. */
export function outputWarningMarkdown(source: string, findings: readonly OutputFinding[], verdict: ReviewVerdict | undefined): string {
  const text = describeFindings(findings).replace(/[\\`*_[\]<>]/g, (ch) => `\\${ch}`);
  return `\n\n> ⚠ The result of ${source} looks like it tries to instruct the model: ${text}. ${VERDICT_WORDS[verdict ?? 'warned']}.\n\n`;
}
