// Approvals in a real VS Code, against the real server-filesystem: a call that writes a file waits
// as a card (with the diff of what it would change) until the person answers through the sidebar's
// typed protocol; edited arguments are checked against the tool's schema and previewed again; rules
// are kept where the person said and can be revoked; every call lands in the history, which is
// persisted and exported; a cancelled call's card goes away.
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SwitchboardApi } from '../../src/extension';
import type { CallRecord } from '../../src/core/approvals';
import { pendingCards, setApprovalMode, sidebarRequest, waitForCard } from './approvalsSupport';
import { closeAllEditors, FileRestorer, fixtureIsLoaded, fixtureWorkspace, switchboardApi, userFile, waitFor } from './configTestSupport';
import { waitForStates } from './lifecycleTestSupport';
import { addUserServers, sidebarSnapshot } from './userServersSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const ID = 'fs-approvals';

describe('Approvals', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  let api: SwitchboardApi;
  const restorer = new FileRestorer();
  let scratch: string;
  let notes: string;

  const textOf = (result: { content: { type: string; text?: unknown }[] }): string => result.content.map((c) => String(c.text ?? '')).join('');
  const history = async (): Promise<readonly { tool: string; decision: string; decidedBy: string; ran: boolean; error?: string; argsText: string }[]> =>
    (await sidebarSnapshot()).approvals.history;

  before(async () => {
    // Dialogs answered by script (revoking and exporting ask first): yes to every confirmation.
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { confirm: true });
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    scratch = fs.mkdtempSync(path.join(fixtureWorkspace(), 'approvals-'));
    notes = path.join(scratch, 'notes.txt');
    fs.writeFileSync(notes, 'one\ntwo\nthree\n');
    addUserServers(restorer, {
      [ID]: { command: 'node', args: ['${env:SWITCHBOARD_REPO}/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', fixtureWorkspace()] },
    });
    await waitFor('the filesystem server', () => api.getServerStates().some((s) => s.id === ID), 10_000);
    await waitForStates(api, [ID], 'ready');
    await setApprovalMode('askBeforeEdits');
  });

  after(async () => {
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', null);
    for (const card of await pendingCards()) await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'reject' } }).catch(() => undefined);
    for (const rule of (await sidebarSnapshot()).approvals.rules) await sidebarRequest('revokeRule', { ruleId: rule.id });
    await setApprovalMode('acceptEverything');
    await closeAllEditors();
    restorer.restore();
    fs.rmSync(scratch, { recursive: true, force: true });
    await fixtureIsLoaded(api, 10_000);
  });

  it('shows a write as a card with the diff, and a rejection leaves the file alone and tells the caller why', async () => {
    const call = api.callTool(ID, 'write_file', { path: notes, content: 'one\nTWO\nthree\n' });
    const card = await waitForCard('write_file', ID);
    assert.equal(card.qualifiedName, `mcp__${ID}__write_file`);
    assert.match(card.reason, /change files in the workspace/);
    assert.equal(card.caller, 'api');
    assert.deepEqual(card.preview?.changes, [{ path: fs.realpathSync(notes), kind: 'modify' }]);
    assert.match(card.preview?.diff ?? '', /^-two$/m);
    assert.match(card.preview?.diff ?? '', /^\+TWO$/m);
    assert.equal(card.annotations?.destructiveHint, true, 'server-filesystem marks write_file destructive');

    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'reject', reason: 'keep two lowercase' } });
    await assert.rejects(call, /rejected by the person: keep two lowercase/);
    assert.equal(fs.readFileSync(notes, 'utf8'), 'one\ntwo\nthree\n');
    assert.deepEqual(await pendingCards(), []);
    const [last] = await history();
    assert.equal(last?.tool, 'write_file');
    assert.equal(last?.decision, 'ask');
    assert.equal(last?.decidedBy, 'you (Reject)');
    assert.equal(last?.ran, false);
    assert.match(last?.error ?? '', /keep two lowercase/);
  });

  it('checks edited arguments at the field, previews them again, and runs the call with them once approved', async () => {
    const call = api.callTool(ID, 'write_file', { path: notes, content: 'one\nTWO\nthree\n' });
    const card = await waitForCard('write_file', ID);

    const wrong = await sidebarRequest('checkArguments', { approvalId: card.id, args: { path: notes, content: 5 } });
    assert.deepEqual(wrong.problems.map((p) => p.path), ['/content']);
    const missing = await sidebarRequest('checkArguments', { approvalId: card.id, args: { content: 'x' } });
    assert.deepEqual(missing.problems, [{ path: '/path', message: 'is required' }]);

    const edited = { path: notes, content: 'one\ntwo and a half\nthree\n' };
    const checked = await sidebarRequest('checkArguments', { approvalId: card.id, args: edited });
    assert.deepEqual(checked.problems, []);
    assert.match(checked.preview?.diff ?? '', /^\+two and a half$/m);

    // Open Diff: VS Code's diff editor between the file and the proposal.
    await sidebarRequest('openDiff', { approvalId: card.id, args: edited, change: 0 });
    const tab = await waitFor('the diff tab', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff && input;
    }, 10_000);
    assert.equal(tab.original.fsPath, fs.realpathSync(notes));
    assert.equal(tab.modified.scheme, 'switchboard-proposal');
    assert.equal((await vscode.workspace.openTextDocument(tab.modified)).getText(), edited.content);
    await closeAllEditors();

    // One round trip: an Approve whose arguments do not fit settles nothing and says why, at the field.
    const refused = await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args: { path: notes, content: 5 } } });
    assert.deepEqual(refused.problems.map((p) => p.path), ['/content']);
    assert.ok((await pendingCards()).some((c) => c.id === card.id), 'the card still waits');

    const approved = await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args: edited } });
    assert.deepEqual(approved.problems, []);
    assert.match(textOf(await call), /Successfully wrote/);
    assert.equal(fs.readFileSync(notes, 'utf8'), edited.content);
    const [last] = await history();
    assert.equal(last?.decidedBy, 'you (Approve)');
    assert.equal(last?.ran, true);
    assert.match(last?.argsText ?? '', /two and a half/);
  });

  it('opens the result of a Call Tool… that waited for a card without taking the focus: a quick pick opened meanwhile stays open', async () => {
    // The Sidebar is on screen, where the person answers the card (a hidden one would be revealed when the card came).
    await vscode.commands.executeCommand('switchboard.sidebar.focus');
    const args = { path: notes, content: 'one\ntwo\nthree\nfour\n' };
    const outcome = vscode.commands.executeCommand<{ uri?: string; error?: string }>('switchboard.callTool', { serverId: ID, tool: 'write_file', arguments: args });
    const card = await waitForCard('write_file', ID);
    // The person has moved on while the card waited: the palette's next question is open.
    const pick = vscode.window.createQuickPick();
    let hidden = false;
    pick.onDidHide(() => { hidden = true; });
    pick.items = [{ label: 'the next thing' }];
    pick.show();
    try {
      await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args: card.args } });
      const { uri, error } = (await outcome) ?? {};
      assert.equal(error, undefined);
      await waitFor('the result editor', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri), 10_000);
      assert.equal(fs.readFileSync(notes, 'utf8'), args.content);
      // A lost focus reaches the extension host as the pick's hide event, a message later.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(hidden, false, 'opening the result closed the quick pick the person had open');
    } finally {
      pick.dispose();
      await closeAllEditors();
    }
  });

  it('keeps "Always allow (this workspace)" as a rule in the workspace state, applies it, and asks again once revoked', async () => {
    const args = { path: notes, content: 'always\n' };
    const first = api.callTool(ID, 'write_file', args);
    const card = await waitForCard('write_file', ID);
    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args, remember: 'workspace' } });
    await first;
    const rule = (await sidebarSnapshot()).approvals.rules.find((r) => r.tool === 'write_file');
    assert.ok(rule, 'a rule for write_file');
    assert.equal(rule.scope, 'workspace');
    assert.equal(rule.server, ID);
    assert.match(rule.origin, /Always allow \(this workspace\)/);
    const stored = await vscode.commands.executeCommand<{ workspaceRules: { id: string }[]; globalRules: unknown[] }>('_switchboard.test.storedApprovals');
    assert.deepEqual(stored?.workspaceRules.map((r) => r.id), [rule.id], 'kept in the workspace state');
    assert.deepEqual(stored?.globalRules, []);

    // The next identical call runs at once, decided by the rule.
    await api.callTool(ID, 'write_file', args);
    assert.deepEqual(await pendingCards(), []);
    assert.equal((await history())[0]?.decidedBy, 'your rule');

    await sidebarRequest('revokeRule', { ruleId: rule.id });
    assert.deepEqual((await sidebarSnapshot()).approvals.rules, []);
    const again = api.callTool(ID, 'write_file', args);
    const asked = await waitForCard('write_file', ID);
    await sidebarRequest('answerApproval', { approvalId: asked.id, answer: { kind: 'reject' } });
    await assert.rejects(again, /rejected by the person$/);
  });

  it('keeps "Always allow (everywhere)" for the server\'s identity (its scope and file), and applies it to that server', async () => {
    const args = { path: notes, content: 'everywhere\n' };
    const first = api.callTool(ID, 'write_file', args);
    const card = await waitForCard('write_file', ID);
    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args, remember: 'global' } });
    await first;
    const stored = await vscode.commands.executeCommand<{ globalRules: { id: string; server: string; serverScope?: string; serverFile?: string }[] }>('_switchboard.test.storedApprovals');
    const [rule] = stored?.globalRules ?? [];
    assert.deepEqual({ server: rule?.server, scope: rule?.serverScope, file: rule?.serverFile }, { server: ID, scope: 'user', file: userFile() });
    await api.callTool(ID, 'write_file', args);
    assert.equal((await history())[0]?.decidedBy, 'your rule', 'the rule lets the same server through');

    await sidebarRequest('revokeRule', { ruleId: rule!.id });
  });

  it('narrows "Always allow" to this file: kept with its pattern, that file runs at once, another asks; a path no rule can read is refused and the card stays', async () => {
    const args = { path: notes, content: 'narrow\n' };
    const first = api.callTool(ID, 'write_file', args);
    const card = await waitForCard('write_file', ID);
    assert.deepEqual(card.ruleChoices?.paths.map((p) => p.argument), ['path']);
    await assert.rejects(
      sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args: { ...args, path: '~/notes.txt' }, remember: 'workspace', narrow: { kind: 'file' } } }),
      /starts with ~/);
    assert.deepEqual((await pendingCards()).map((c) => c.id), [card.id], 'the card stays, and no rule is kept');
    assert.deepEqual((await sidebarSnapshot()).approvals.rules, []);
    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args, remember: 'workspace', narrow: { kind: 'file' } } });
    await first;
    const rule = (await sidebarSnapshot()).approvals.rules.find((r) => r.conditions !== undefined);
    assert.ok(rule, 'a rule with conditions');
    assert.deepEqual(rule.conditions, [`path is ${notes.split(path.sep).join('/')}`]);
    const stored = await vscode.commands.executeCommand<{ workspaceRules: { arguments?: unknown }[] }>('_switchboard.test.storedApprovals');
    assert.deepEqual(stored?.workspaceRules.map((r) => r.arguments), [[{ kind: 'path', argument: 'path', glob: notes.split(path.sep).join('/') }]]);

    await api.callTool(ID, 'write_file', args);
    assert.equal((await history())[0]?.decidedBy, 'your rule');
    const other = api.callTool(ID, 'write_file', { path: path.join(scratch, 'other.txt'), content: 'other\n' });
    const asked = await waitForCard('write_file', ID);
    await sidebarRequest('answerApproval', { approvalId: asked.id, answer: { kind: 'reject' } });
    await assert.rejects(other, /rejected by the person$/);
    await sidebarRequest('revokeRule', { ruleId: rule.id });
  });

  it('keeps "Approve for session" in memory only', async () => {
    const args = { path: notes, content: 'session\n' };
    const first = api.callTool(ID, 'write_file', args);
    const card = await waitForCard('write_file', ID);
    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args, remember: 'session' } });
    await first;
    const rule = (await sidebarSnapshot()).approvals.rules.find((r) => r.scope === 'session');
    assert.ok(rule);
    const stored = await vscode.commands.executeCommand<{ workspaceRules: unknown[]; globalRules: unknown[] }>('_switchboard.test.storedApprovals');
    assert.deepEqual(stored?.workspaceRules, []);
    assert.deepEqual(stored?.globalRules, []);
    await api.callTool(ID, 'write_file', args);
    assert.equal((await history())[0]?.decidedBy, 'your rule');
    await sidebarRequest('revokeRule', { ruleId: rule.id });
  });

  it('removes the card of a call its caller cancelled, and a late answer is refused', async () => {
    const controller = new AbortController();
    const call = api.callTool(ID, 'write_file', { path: notes, content: 'never\n' }, { signal: controller.signal });
    const card = await waitForCard('write_file', ID);
    controller.abort();
    await assert.rejects(call, /cancelled before it was approved/);
    await waitFor('the card to go', async () => (await pendingCards()).length === 0, 5000);
    await assert.rejects(sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args: card.args } }), /no longer waits/);
    assert.notEqual(fs.readFileSync(notes, 'utf8'), 'never\n');
  });

  it('lets read-only tools of a trusted server run at once, and persists and exports the history', async () => {
    const listed = await api.callTool(ID, 'list_directory', { path: scratch });
    assert.match(textOf(listed), /notes\.txt/);
    const [last] = await history();
    assert.equal(last?.tool, 'list_directory');
    assert.equal(last?.decision, 'allow');
    assert.equal(last?.decidedBy, "the tool's hints");

    const stored = await waitFor('the history to be persisted', async () => {
      const state = await vscode.commands.executeCommand<{ history: CallRecord[] }>('_switchboard.test.storedApprovals');
      return state !== undefined && state.history[0]?.tool === 'list_directory' && state;
    }, 5000, 100);
    assert.ok(stored.history.some((r) => r.tool === 'write_file' && r.decidedBy.kind === 'person'));

    // A path given with the command is only proposed in the save dialog; the file is the one picked there.
    const proposed = path.join(os.tmpdir(), `switchboard-history-proposed-${process.pid}.json`);
    const target = path.join(os.tmpdir(), `switchboard-history-${process.pid}.json`);
    try {
      await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { confirm: true, save: target });
      await vscode.commands.executeCommand('switchboard.exportCallHistory', vscode.Uri.file(proposed));
      const asked = await vscode.commands.executeCommand<{ kind: string; defaultPath?: string }[]>('_switchboard.test.dialogsAsked');
      assert.deepEqual(asked.at(-1), { kind: 'save', message: 'Export Call History', defaultPath: proposed });
      assert.equal(fs.existsSync(proposed), false, 'nothing is written where the command was told to write');
      const exported = JSON.parse(fs.readFileSync(target, 'utf8')) as CallRecord[];
      assert.equal(exported.length, (await history()).length);
      assert.equal(exported[0]?.tool, 'list_directory');
      assert.deepEqual(exported[0]?.args, { path: scratch });
      assert.ok(exported.every((r) => typeof r.at === 'number' && typeof r.durationMs === 'number' && typeof r.caller === 'string'));
    } finally {
      await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { confirm: true });
      fs.rmSync(target, { force: true });
      fs.rmSync(proposed, { force: true });
    }
  });

  it('previews a tool mapped in switchboard.approvals.fileWriteTools, and only then', async () => {
    addUserServers(restorer, { notes: { command: 'node', args: ['${env:SWITCHBOARD_REPO}/test/fixtures/servers/notes-writer.mjs'] } });
    await waitFor('the notes server', () => api.getServerStates().some((s) => s.id === 'notes'), 10_000);
    await waitForStates(api, ['notes'], 'ready');
    const note = path.join(scratch, 'note.md');
    const args = { file: note, body: '# Hello\n' };
    const settings = vscode.workspace.getConfiguration('switchboard');
    try {
      const unmapped = api.callTool('notes', 'save_note', args);
      const plain = await waitForCard('save_note', 'notes');
      assert.equal(plain.preview, undefined, '"body" is not a content argument a preview knows');
      await sidebarRequest('answerApproval', { approvalId: plain.id, answer: { kind: 'reject' } });
      await assert.rejects(unmapped);

      await settings.update('approvals.fileWriteTools', { notes: { save_note: { path: 'file', content: 'body' } } }, vscode.ConfigurationTarget.Global);
      const mapped = api.callTool('notes', 'save_note', args);
      const card = await waitForCard('save_note', 'notes');
      assert.deepEqual(card.preview?.changes, [{ path: note, kind: 'create' }]);
      assert.match(card.preview?.diff ?? '', /^\+# Hello$/m, 'a new file shows as all added');
      await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'approve', args } });
      await mapped;
      assert.equal(fs.readFileSync(note, 'utf8'), '# Hello\n');
    } finally {
      await settings.update('approvals.fileWriteTools', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('refuses malformed answers at the protocol, before anything is answered', async () => {
    const call = api.callTool(ID, 'write_file', { path: notes, content: 'malformed\n' });
    const card = await waitForCard('write_file', ID);
    const raw = async (params: unknown) => vscode.commands.executeCommand<{ type: string; error?: { code: string } }>('_switchboard.test.sidebarRequest', { type: 'request', id: 9000, method: 'answerApproval', params });
    assert.equal((await raw({ approvalId: card.id, answer: { kind: 'approve' } }))?.error?.code, 'invalidParams');
    assert.equal((await raw({ approvalId: card.id, answer: { kind: 'approve', args: {}, remember: 'forever' } }))?.error?.code, 'invalidParams');
    assert.equal((await raw({ approvalId: card.id, answer: { kind: 'maybe' } }))?.error?.code, 'invalidParams');
    assert.equal((await pendingCards()).length, 1, 'the card still waits');
    await sidebarRequest('answerApproval', { approvalId: card.id, answer: { kind: 'reject' } });
    await assert.rejects(call);
  });
});
