// **Import Servers…**: reads another host's servers (the core's translators), lets a person tick what
// to bring over into the scope they choose, resolves names the target has (rename / replace / skip),
// offers to move literal secrets into secret storage, shows every definition whole before writing, and
// writes the scope file with text edits (comments kept); the config watcher picks the change up, and a
// project entry waits for trust like any other. A server read from a repository's file goes into the
// person's own scopes only through the trust prompt a project server gets, and its entry names the file.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { counted } from '../../protocol/counts';
import { serverNames } from '../../core/config/scopeWriter';
import {
  defaultLocations, freeName, HOST_IDS, HOST_NAMES, importHost, MAX_HOST_FILE_BYTES, originNote, planImport, withWorkspaceOrigins, workspaceImportEntries, workspaceServersOf,
  type Conflict, type HostId, type HostImport, type ImportPlan, type Platform,
} from '../../core/import';
import { buildTrustPrompt, launchDangerFlags, type TrustPromptEntry } from '../../core/trust';
import { dangerFlagContext } from '../../node/dangerFlagContext';
import { NodeConfigFileSystem } from '../../node/configFileSystem';
import type { ConfigSources } from '../config/configSources';
import type { Feedback } from '../ui/feedback';
import { ScriptedImportUi, VscodeImportUi, type ImportTarget, type ImportUi, type ScriptedAnswers } from './importUi';
import { notifyError } from '../ui/notify';
import { readScopeFile, scopeTargets, writeEntries } from '../config/scopeTargets';
import type { WorkspaceInputs } from '../inputs/workspaceInputs';

export const IMPORT_SERVERS_COMMAND = 'switchboard.importServers';
/** Test-only: the next Import Servers… is answered by a script (extension test runs only). */
const SCRIPT_COMMAND = '_switchboard.test.answerImport';

export interface ImportServersDeps {
  sources: ConfigSources;
  inputs: WorkspaceInputs;
  log: vscode.LogOutputChannel;
  feedback: Feedback;
  testing: boolean;
}

/** What one run wrote, for tests and the message. */
export interface ImportOutcome {
  file: string;
  scope: ImportTarget['scope'];
  written: string[];
}

/** Registers Import Servers… (and, under tests, its script hook). */
export function registerImportServers(deps: ImportServersDeps): vscode.Disposable {
  let scripted: ScriptedImportUi | undefined;
  const disposables = [vscode.commands.registerCommand(IMPORT_SERVERS_COMMAND, async () => {
    const ui = scripted ?? new VscodeImportUi();
    scripted = undefined;
    try {
      return await runImport(deps, ui);
    } catch (error) {
      deps.log.error('Import Servers… failed:', error instanceof Error ? error : String(error));
      void notifyError(`MCP Switchboard: import failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  })];
  if (deps.testing) {
    disposables.push(vscode.commands.registerCommand(SCRIPT_COMMAND, (answers: ScriptedAnswers) => {
      scripted = new ScriptedImportUi(answers);
      return scripted.shown;
    }));
  }
  return vscode.Disposable.from(...disposables);
}

/** The whole flow; undefined when the person cancelled at any step. */
export async function runImport(deps: ImportServersDeps, ui: ImportUi): Promise<ImportOutcome | undefined> {
  const files = new NodeConfigFileSystem();
  const folders = deps.sources.folders().map((folder) => folder.uri.fsPath);
  const locations = (host: HostId) => defaultLocations(host, { platform: platformOf(process.platform), home: os.homedir(), env: process.env, folders });
  const hosts = await Promise.all(HOST_IDS.map(async (host) => ({
    host, name: HOST_NAMES[host],
    found: (await Promise.all(locations(host).map(async (file) => ((await files.read(file, MAX_HOST_FILE_BYTES)).kind === 'missing' ? undefined : file))))
      .filter((file): file is string => file !== undefined),
  })));
  const choice = await ui.pickHost(hosts);
  if (choice === undefined) return undefined;
  const paths = choice.file !== undefined ? [choice.file] : locations(choice.host);
  const result = importHost(choice.host, await Promise.all(paths.map(async (file) => ({ file, read: await files.read(file, MAX_HOST_FILE_BYTES) }))));
  const userFiles = defaultLocations(choice.host, { platform: platformOf(process.platform), home: os.homedir(), env: process.env });
  result.servers = withWorkspaceOrigins(result.servers, { folders, userFiles });
  logResult(deps.log, result);
  if (result.servers.length === 0) {
    await ui.nothingToImport(HOST_NAMES[choice.host], result);
    return undefined;
  }

  const target = await ui.pickTarget(scopeTargets(deps.sources));
  if (target === undefined) return undefined;
  const text = await readScopeFile(target.file);
  const existing = new Set(serverNames(text));
  const ticked = await ui.pickServers(result, existing, target);
  if (ticked === undefined || ticked.length === 0) return undefined;

  const conflicts = new Map<string, Conflict>();
  const taken = new Set([...existing, ...ticked.map((server) => server.name)]);
  for (const server of ticked.filter((candidate) => existing.has(candidate.name))) {
    const answer = await ui.resolveConflict(server, target, freeName(server.name, taken));
    if (answer === undefined) return undefined;
    if (answer.kind === 'rename') taken.add(answer.name);
    conflicts.set(server.name, answer);
  }
  const secrets = ticked.flatMap((server) => server.secrets.map((secret) => ({ server: server.name, ...secret })));
  const move = secrets.length === 0 ? false : await ui.askMoveSecrets(secrets);
  if (move === undefined) return undefined;

  const plan = planImport(ticked, result.inputs, existing, conflicts, move);
  if (plan.servers.length === 0) return undefined;
  // A repository's servers become the person's own only through the trust prompt a project server gets.
  if (target.scope !== 'project' && !(await trustedByPerson(plan, folders, ui))) return undefined;
  if (!(await ui.confirm(plan, target))) return undefined;
  const now = new Date();
  const written = await writeEntries(target, text, plan.servers.map((server) => ({
    ...server, ...(server.fromWorkspace !== undefined ? { note: originNote(server.fromWorkspace, now) } : {}),
  })), plan.inputs);
  for (const secret of plan.secrets) await deps.inputs.remember(secret.id, secret.value, { scope: target.scope, file: target.file });
  const outcome: ImportOutcome = { file: target.file, scope: target.scope, written };
  deps.feedback.show(`$(cloud-download) MCP Switchboard: imported ${counted(written.length, 'server')} into ${target.label}`, deps.log);
  void ui.done(outcome);
  return outcome;
}

/** True when the plan has no repository server, or the person trusted them in the trust prompt. */
async function trustedByPerson(plan: ImportPlan, folders: string[], ui: ImportUi): Promise<boolean> {
  const servers = workspaceServersOf(plan);
  if (servers.length === 0) return true;
  const { loadBashParser } = await import('../../node/bashParser');
  const context = dangerFlagContext({ workspaceFolders: folders, userHome: os.homedir(), env: process.env, shellParser: await loadBashParser() });
  const entries: TrustPromptEntry[] = workspaceImportEntries(servers.map((server) => ({ name: server.name, entry: server.entry, file: server.fromWorkspace })), {
    folders, env: process.env, userHome: os.homedir(), flags: (server) => launchDangerFlags(server, context),
  });
  return await ui.trust({ entries, text: buildTrustPrompt(entries) }) === 'trust';
}

function logResult(log: vscode.LogOutputChannel, result: HostImport): void {
  log.info(`import from ${HOST_NAMES[result.host]}: read ${result.readFiles.join(', ') || 'no file'}; ${counted(result.servers.length, 'server')}`);
  for (const item of result.skipped) log.info(`import: ${item.name}: ${item.reason}`);
  for (const problem of result.problems) log.warn(`import: ${problem.file}:${problem.line}:${problem.column} ${problem.message}`);
}

function platformOf(platform: NodeJS.Platform): Platform {
  return platform === 'win32' || platform === 'darwin' ? platform : 'linux';
}
