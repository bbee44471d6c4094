// Tooltip markdown for the rows of the "Servers" tree: plain text only, never trusted, never HTML.
import * as vscode from 'vscode';

/** A tooltip line: plain text, optionally followed by code (a command line, a url) shown verbatim. */
export interface TooltipLine {
  text: string;
  code?: string;
}

/** Plain text as markdown, line breaks kept. */
export function plainMarkdown(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  text.split('\n').forEach((line, index) => {
    if (index > 0) md.appendMarkdown('  \n');
    md.appendText(line);
  });
  return md;
}

export function toMarkdown(lines: TooltipLine[]): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  lines.forEach((line, index) => {
    if (index === 0) {
      md.appendMarkdown('**');
      md.appendText(line.text);
      md.appendMarkdown('**');
    } else {
      md.appendText(line.text);
    }
    if (line.code !== undefined) md.appendMarkdown(inlineCode(line.code));
    md.appendMarkdown(index === 0 ? '\n\n' : '  \n');
  });
  return md;
}

/** Markdown inline code that shows `text` exactly, whatever backticks it contains. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${text.replace(/\r?\n/g, ' ')} ${fence}`;
}
