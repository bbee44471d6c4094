// Every message VS Code shows as a notification, a status bar message or a notification progress title
// is built through plainText: read from the TypeScript syntax of src/vscode, so a new message that
// skips it fails here. The rules: a non-modal show…Message is called only in src/vscode/ui/notify.ts, and
// there with plainText(…) text; a modal one may be anywhere (VS Code shows dialog text as plain text);
// a withProgress title, a progress report's message (shown in the same notification, as a sign-in's
// "waiting for the browser…") and a setStatusBarMessage text are a literal or plainText(…).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const NOTIFY = 'src/vscode/ui/notify.ts';
const SHOW = /^show(Information|Warning|Error)Message$/;

/** A literal, plainText(…), or notify.ts's recorder around one. */
function isPlainTextExpression(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (ts.isParenthesizedExpression(node)) return isPlainTextExpression(node.expression);
  if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression)) return false;
  if (node.expression.text === 'plainText') return true;
  const [inner] = node.arguments;
  return node.expression.text === 'recorded' && inner !== undefined && isPlainTextExpression(inner);
}

function isModal(call: ts.CallExpression): boolean {
  return call.arguments.some((arg) => ts.isObjectLiteralExpression(arg) && arg.properties.some((p) =>
    ts.isPropertyAssignment(p) && p.name.getText() === 'modal' && p.initializer.kind === ts.SyntaxKind.TrueKeyword));
}

/** Every message-building call in `source` that does not keep server text plain, as `file:line: why`. */
export function unsafeMessages(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, why: string): void => {
    found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${why}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const [first] = node.arguments;
      if (SHOW.test(name) && !isModal(node)) {
        if (file !== NOTIFY) at(node, `${name} outside ${NOTIFY} (use notifyInfo/notifyWarning/notifyError)`);
        else if (first === undefined || !isPlainTextExpression(first)) at(node, `${name} with text that is not plainText(…)`);
      }
      if (name === 'setStatusBarMessage' && (first === undefined || !isPlainTextExpression(first))) at(node, 'status bar text that is not plainText(…)');
      if (name === 'report' && first !== undefined) {
        const message = ts.isObjectLiteralExpression(first)
          ? first.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'message')
          : undefined;
        const shorthand = ts.isObjectLiteralExpression(first) && first.properties.some((p) => ts.isShorthandPropertyAssignment(p) && p.name.text === 'message');
        if (!ts.isObjectLiteralExpression(first) || shorthand) at(node, 'a progress report whose message cannot be read (use an object literal with message: plainText(…))');
        else if (message && !isPlainTextExpression(message.initializer)) at(node, 'a progress message that is not plainText(…)');
      }
      if (name === 'withProgress' && first !== undefined) {
        const title = ts.isObjectLiteralExpression(first)
          ? first.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'title')
          : undefined;
        if (!ts.isObjectLiteralExpression(first)) at(node, 'withProgress options that are not an object literal');
        else if (title && !isPlainTextExpression(title.initializer)) at(node, 'a progress title that is not plainText(…)');
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function vscodeSources(): string[] {
  const dir = path.join(ROOT, 'src', 'vscode');
  return fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).sort().map((f) => path.posix.join('src/vscode', f.split(path.sep).join('/')));
}

describe('lint: server text in messages goes through plainText', () => {
  it('finds the message-building calls that skip it (so the check can fail)', () => {
    const bad = [
      'vscode.window.showInformationMessage(`"${id}" wants input: ${message}`, "Show");',
      'vscode.window.showErrorMessage(message);',
      'vscode.window.setStatusBarMessage(`${id} restarted`, 1000);',
      'vscode.window.withProgress({ location: 15, title: `Calling ${tool}` }, run);',
      'vscode.window.withProgress(options, run);',
      'progress.report({ message: `signing in: ${error.message}` });',
      'progress.report({ message });',
      'progress.report(update);',
    ];
    for (const code of bad) assert.equal(unsafeMessages('src/vscode/x.ts', code).length, 1, code);
    assert.equal(unsafeMessages(NOTIFY, 'vscode.window.showWarningMessage(message);').length, 1);
    assert.equal(unsafeMessages(NOTIFY, 'vscode.window.showWarningMessage(recorded(message));').length, 1);
  });

  it('accepts the safe shapes', () => {
    const good = [
      'vscode.window.showWarningMessage(`Sign in to "${id}"?`, { modal: true, detail }, "Open");',
      'vscode.window.setStatusBarMessage(plainText(text, { keepLeadingIcon: true }), 1000);',
      'vscode.window.withProgress({ location: 15, title: plainText(`Calling ${tool}`) }, run);',
      'vscode.window.withProgress({ location: 10, title: "Restarting MCP servers…" }, run);',
      "progress.report({ message: 'waiting for the browser…' });",
      'progress.report({ message: plainText(`${done} of ${total}: ${step}`), increment: 10 });',
      'progress.report({ increment: 10 });',
    ];
    for (const code of good) assert.deepEqual(unsafeMessages('src/vscode/x.ts', code), [], code);
    assert.deepEqual(unsafeMessages(NOTIFY, 'vscode.window.showErrorMessage(recorded(plainText(message)), ...buttons);'), []);
  });

  it('holds in every file of src/vscode', () => {
    const files = vscodeSources();
    assert.ok(files.includes(NOTIFY) && files.length > 20, 'the sources were found');
    const found = files.flatMap((file) => unsafeMessages(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
    assert.deepEqual(found, []);
  });
});
