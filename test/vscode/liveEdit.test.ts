// Editing a config file shows up in the Servers view within a second, whether the file is written by
// another program or saved from the editor.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import {
  closeAllEditors, FileRestorer, fixtureIsLoaded, projectFile, serverItems, serverRow, switchboardApi, userFile, waitFor,
} from './configTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const LIMIT_MS = 1000;

/** Adds a server entry right after `"mcpServers": {` of a fixture file. */
function withServer(text: string, name: string, entry: string): string {
  const at = text.indexOf('"mcpServers": {') + '"mcpServers": {'.length;
  return `${text.slice(0, at)}\n    "${name}": ${entry},${text.slice(at)}`;
}

/** Polls the tree until `check` holds; returns the milliseconds since `started`. */
async function msUntilTree(started: number, what: string, check: (items: Awaited<ReturnType<typeof serverItems>>) => boolean): Promise<number> {
  await waitFor(what, async () => check(await serverItems()), 5000, 5);
  return Date.now() - started;
}

/** A project server's row while it waits for trust: asked about at once, or first waiting for its just-written file to settle. */
const awaitingTrust = (transport: string, description = ''): boolean =>
  new RegExp(`^project · ${transport} · (needs trust$|changed — (waiting for|review to) trust: )`).test(description);

describe('live edits', () => {
  ensureNoLeakedDisposables();
  const files = new FileRestorer();
  let api: SwitchboardApi;

  before(async () => {
    api = await switchboardApi();
    await fixtureIsLoaded(api);
  });

  afterEach(async () => {
    await closeAllEditors();
    files.restore();
    await fixtureIsLoaded(api);
  });

  it(`shows a server added to the project file by another program within ${LIMIT_MS} ms`, async () => {
    const file = files.keep(projectFile());
    const text = withServer(fs.readFileSync(file, 'utf8'), 'added-live', '{ "command": "node", "args": ["server.js"] }');
    const started = Date.now();
    fs.writeFileSync(file, text);
    const ms = await msUntilTree(started, 'the added server in the tree',
      // Just written, it waits a moment for the file to settle before the prompt: "changed — waiting for trust".
      (items) => awaitingTrust('stdio', serverRow(items, 'added-live')?.description));
    console.log(`      project file written → tree shows the server: ${ms} ms`);
    assert.ok(ms < LIMIT_MS, `took ${ms} ms`);

    const removed = Date.now();
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/\n {4}"added-live": [^\n]*/, ''));
    const msRemoved = await msUntilTree(removed, 'the server to leave the tree', (items) => !serverRow(items, 'added-live'));
    console.log(`      entry removed → tree drops it: ${msRemoved} ms`);
    assert.ok(msRemoved < LIMIT_MS, `took ${msRemoved} ms`);
  });

  it(`shows a change saved from the editor within ${LIMIT_MS} ms`, async () => {
    const file = files.keep(projectFile());
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const editor = await vscode.window.showTextDocument(document);
    const at = document.positionAt(document.getText().indexOf('"docs"'));
    const range = new vscode.Range(at, at.translate(0, '"docs"'.length));
    assert.ok(await editor.edit((edit) => edit.replace(range, '"docs-renamed"')));
    const started = Date.now();
    assert.ok(await document.save(), 'the document was saved');
    const ms = await msUntilTree(started, 'the renamed server in the tree',
      (items) => awaitingTrust('http', serverRow(items, 'docs-renamed')?.description) && !serverRow(items, 'docs'));
    console.log(`      editor save → tree shows the rename: ${ms} ms`);
    assert.ok(ms < LIMIT_MS, `took ${ms} ms`);
  });

  it(`shows a change to the user file outside the workspace within ${LIMIT_MS} ms`, async () => {
    const file = files.keep(userFile());
    const text = withServer(fs.readFileSync(file, 'utf8'), 'user-live', '{ "type": "sse", "url": "http://127.0.0.1:9/sse" }');
    const started = Date.now();
    fs.writeFileSync(file, text);
    const ms = await msUntilTree(started, 'the user server in the tree',
      // A user server starts at once (and fails: nothing listens there); the row appears either way.
      (items) => serverRow(items, 'user-live')?.description.startsWith('user · sse · ') === true);
    console.log(`      ~/.mcp.json written → tree shows the server: ${ms} ms`);
    assert.ok(ms < LIMIT_MS, `took ${ms} ms`);
  });
});
