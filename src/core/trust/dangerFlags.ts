// What the trust prompt points out before a person trusts a repository's servers: patterns in the
// launch definition that are dangerous, or that a malicious config would use. A flag is a reason to
// read the definition closely, not a verdict; the prompt still shows the full command line.
import type { LaunchDefinition } from '../config/types';
import { isSecretName } from '../lifecycle/redact';
import { addressConcern, isLocalHost, parseWebUrl, type WebUrl } from './addresses';
import { FOREIGN_SHELLS, interpreterSpec, isElevator, POSIX_SHELLS, POWERSHELLS, type ShellParser } from '../shell';
import { EXEC_VARIABLES, isExecVariable } from './execVariables';
import { walkCommandLine, type SimpleCommand } from './commandLine';
import { packagesRun, typosquatReason } from './typosquat';
import { expandHomePrefix, isAbsolutePath, isRoot, isWindowsPath, isWithin, resolvePath } from './workspacePaths';

/** Every danger flag, in the order the prompt lists them. */
export const DANGER_FLAG_IDS = [
  'pipe-to-shell',
  'sudo',
  'rm-rf',
  'encoded-powershell',
  'env-override',
  'outside-workspace',
  'private-address',
  'plaintext-credentials',
  'typosquat',
] as const;

export type DangerFlagId = (typeof DANGER_FLAG_IDS)[number];

/** One reason to look twice at a server definition; `detail` says what matched. */
export interface DangerFlag {
  id: DangerFlagId;
  reason: string;
  detail?: string;
}

/** The short text shown for each flag. */
export const DANGER_FLAG_REASONS: Readonly<Record<DangerFlagId, string>> = {
  'pipe-to-shell': 'downloads a script and pipes it straight into a shell',
  sudo: 'runs a command with elevated privileges',
  'rm-rf': 'deletes files recursively without asking',
  'encoded-powershell': 'runs base64-encoded PowerShell, which hides what it does',
  'env-override': 'overrides an environment variable that decides which program or code gets loaded',
  'outside-workspace': 'runs a program, or works in a folder, outside the workspace',
  'private-address': 'connects to a private, loopback-alias, link-local or cloud-metadata address',
  'plaintext-credentials': 'sends credentials over unencrypted http to another machine',
  typosquat: 'runs a package whose name imitates a well-known MCP server',
};

/** The part of a server that danger flags read. */
export interface DangerFlagSubject {
  launch: LaunchDefinition;
  /** The workspace folder the definition belongs to. */
  folder?: string;
}

/** What danger flags need to know about the machine; supplied by the adapter. */
export interface DangerFlagContext {
  workspaceFolders: string[];
  /** The directories of the PATH the server would be started with. */
  pathDirs: string[];
  userHome: string;
  /** Whether a bare command name resolves on PATH; when omitted, bare names are assumed to. */
  isPathCommand?(command: string): boolean;
  /**
   * Whether an absolute path exists; when given, only existing paths in arguments are flagged (so a
   * `--base-path /mcp` is not taken for a folder). When omitted, every such path is.
   */
  pathExists?(path: string): boolean;
  /** The bash parser the command lines are read with (the one shell reader approvals use too). */
  shellParser: ShellParser;
}

/** The variables whose setting is flagged: the shell table's exec-capable variables. */
export const INJECTION_ENV_VARS: readonly string[] = EXEC_VARIABLES;

const DOWNLOADERS = '(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)(?:\\.exe)?';
const INTERPRETERS = '(?:sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|python[\\d.]*|py|perl|ruby|node|php|deno|bun|pwsh|powershell|cmd|iex|invoke-expression)(?:\\.exe)?';
const END = '(?=$|[\\s;|&)\'"`])';
// Download-and-run shapes. Each is matched in linear passes (no pattern scans ahead from every
// position), so a hostile megabyte-long argument cannot stall the scan.
/** A downloader at a command position. */
const DOWNLOADER_AT = new RegExp(`(?:^|[^\\w-])${DOWNLOADERS}\\s`, 'i');
/** `| sh`, `| sudo -E bash`, `| env X=1 python3`, `| iex`, right at lastIndex (sticky). */
const PIPE_INTO_INTERPRETER = new RegExp(`\\|\\s*(?:(?:sudo|doas)(?:\\s+-[^\\s|]*)*\\s+)?(?:env\\s+(?:[^\\s=|]+=[^\\s|]*\\s+)*)?(?:[^\\s|]{0,200}[\\\\/])?${INTERPRETERS}${END}`, 'iy');
/** `<(curl`, `$(wget`, `` `curl `` anywhere. */
const SUBSTITUTED_DOWNLOAD = new RegExp(`(?:<\\(|\\$\\(|\`)\\s*${DOWNLOADERS}${END}`, 'gi');
/** Programs that run what a substitution yields: `bash <(…)`, `bash -c "$(…)"`, `eval "$(…)"`, `source <(…)`, `. <(…)`. */
const SUBSTITUTION_RUNNER = new RegExp(`^(?:${INTERPRETERS}|source|eval|\\.)$`, 'i');
const LOOK_BEHIND = 300;
/** PowerShell: `iex (iwr …)`, `iex (New-Object Net.WebClient).DownloadString(…)`, `[scriptblock]::Create((iwr …))`. */
const POWERSHELL_DOWNLOAD_RUN: readonly RegExp[] = [
  /\b(?:iex|invoke-expression)\b[\s(]*(?:\$\([\s(]*)?(?:iwr|irm|invoke-webrequest|invoke-restmethod|curl|wget|new-object\s+(?:system\.)?net\.webclient|\[(?:system\.)?net\.webclient\])/i,
  /\[scriptblock\]::create[\s(]*(?:iwr|irm|invoke-webrequest|invoke-restmethod|new-object)/i,
];
const DOWNLOAD_STRING = /\.download(?:string|data)\s*\(/i;
const INVOKE_EXPRESSION = /\b(?:iex|invoke-expression)\b/i;

/** The words before a substitution when they run it (`bash -c "` → `bash -c`), or undefined. */
function substitutionRunner(before: string): string | undefined {
  const head = before.replace(/["']$/, '');
  // The substitution must start a word: `TOKEN=$(curl …)` only stores what was downloaded.
  if (head !== '' && !/\s$/.test(head)) return undefined;
  const words = head.trim().split(/\s+/);
  let k = words.length - 1;
  for (let options = 0; k >= 0 && words[k].startsWith('-') && options < 8; options++) k--;
  if (k < 0) return undefined;
  const name = (words[k].split(/[\\/]/).pop() ?? '').replace(/^[;&|(]+/, '');
  return SUBSTITUTION_RUNNER.test(name) ? words.slice(k).join(' ') : undefined;
}

/** The part of a command line that downloads something and runs it, or undefined. */
function downloadAndRun(text: string): string | undefined {
  // Within each pipeline (`;`, `&&`, `||` and newlines end one), a downloader followed by `| shell`.
  for (const segment of text.split(/\r?\n|;|&&|\|\|/)) {
    const at = segment.search(DOWNLOADER_AT);
    if (at < 0) continue;
    for (let bar = segment.indexOf('|', at); bar >= 0; bar = segment.indexOf('|', bar + 1)) {
      PIPE_INTO_INTERPRETER.lastIndex = bar;
      const piped = PIPE_INTO_INTERPRETER.exec(segment);
      if (piped) return `${segment.slice(at, bar).trim()} ${piped[0]}`.replace(/^[^\w$<.[]+/, '');
    }
  }
  for (const match of text.matchAll(SUBSTITUTED_DOWNLOAD)) {
    const runner = substitutionRunner(text.slice(Math.max(0, (match.index ?? 0) - LOOK_BEHIND), match.index));
    if (runner !== undefined) return `${runner} ${match[0]}`;
  }
  for (const pattern of POWERSHELL_DOWNLOAD_RUN) {
    const match = pattern.exec(text);
    if (match) return match[0];
  }
  if (DOWNLOAD_STRING.test(text) && INVOKE_EXPRESSION.test(text)) return text;
  return undefined;
}


/** The danger flags of one server definition, one per id, in DANGER_FLAG_IDS order. */
export function dangerFlags(server: DangerFlagSubject, context: DangerFlagContext): DangerFlag[] {
  const found = new Map<DangerFlagId, string[]>();
  const flag = (id: DangerFlagId, detail: string): void => {
    const details = found.get(id) ?? [];
    if (!details.includes(detail)) details.push(detail);
    found.set(id, details);
  };
  const { launch } = server;
  const roots = workspaceRoots(server, context);

  if (launch.command !== undefined && launch.command.trim() !== '') {
    const walk = walkCommandLine(launch.command, launch.args ?? [], context.shellParser);
    for (const text of walk.texts) {
      const matched = downloadAndRun(text);
      if (matched !== undefined) flag('pipe-to-shell', clip(matched));
    }
    for (const { blob, decoded } of walk.encoded) {
      if (/^[A-Za-z0-9+/]{8,}={0,2}$/.test(blob)) flag('encoded-powershell', decoded === undefined ? clip(blob) : `decodes to: ${clip(decoded)}`);
    }
    for (const command of walk.commands) {
      checkCommand(command, flag);
      for (const name of command.assignments) if (isInjectionVar(name)) flag('env-override', `${name} (set on the command line)`);
      if (command.top) checkProgramLocation(command, launch, roots, context, flag);
      checkPathArguments(command, launch, roots, context, flag);
    }
    const cwd = launch.cwd === undefined ? undefined : resolvePath(server.folder ?? roots[0], expandHomePrefix(launch.cwd, context.userHome));
    if (cwd !== undefined && roots.length > 0 && !roots.some((root) => isWithin(root, cwd))) flag('outside-workspace', `cwd ${launch.cwd}`);
    if (launch.envFile !== undefined && isOutside(launch.envFile, server.folder ?? roots[0], roots, context)) flag('outside-workspace', `envFile ${launch.envFile}`);
  }

  // A repository's entry that hands the server folders outside the workspace as roots (any transport).
  for (const folder of launch.roots || []) if (isOutside(folder, server.folder ?? roots[0], roots, context)) flag('outside-workspace', `root ${folder}`);
  for (const name of Object.keys(launch.env ?? {})) if (isInjectionVar(name)) flag('env-override', name);
  // What the env file defined when the configuration was read counts as much as `env`.
  for (const name of Object.keys(launch.envFileVars ?? {})) if (isInjectionVar(name)) flag('env-override', `${name} (from envFile ${launch.envFile ?? ''})`);

  checkUrls(launch, flag);

  return DANGER_FLAG_IDS.filter((id) => found.has(id)).map((id) => {
    const details = found.get(id) ?? [];
    return details.length > 0 ? { id, reason: DANGER_FLAG_REASONS[id], detail: details.join('; ') } : { id, reason: DANGER_FLAG_REASONS[id] };
  });
}

function checkCommand(command: SimpleCommand, flag: (id: DangerFlagId, detail: string) => void): void {
  const elevated = [command.name, ...command.wrappers].find((name) => isElevator(name));
  if (elevated !== undefined) flag('sudo', elevated);
  if (isStartProcessAsAdmin(command)) flag('sudo', 'Start-Process -Verb RunAs');
  if (deletesRecursively(command)) flag('rm-rf', clip([command.program, ...command.args].join(' ')));
  for (const run of packagesRun(command)) {
    const reason = typosquatReason(run);
    if (reason !== undefined) flag('typosquat', reason);
  }
}

function isStartProcessAsAdmin(command: SimpleCommand): boolean {
  if (command.name !== 'start-process' && command.name !== 'saps' && command.name !== 'start') return false;
  const at = command.args.findIndex((arg) => /^-verb$/i.test(arg));
  return at >= 0 && /^runas$/i.test(command.args[at + 1] ?? '');
}

/** rm -rf / -fr / -r -f / --recursive --force, Remove-Item -Recurse -Force (and its aliases), rd /s /q, del /s /q. */
function deletesRecursively(command: SimpleCommand): boolean {
  const { name, args } = command;
  if (!['rm', 'remove-item', 'ri', 'del', 'erase', 'rd', 'rmdir'].includes(name)) return false;
  let recursive = false;
  let force = false;
  let quiet = false;
  for (const arg of args) {
    if (arg === '--') break;
    const lower = arg.toLowerCase();
    if (lower === '--recursive') recursive = true;
    else if (lower === '--force') force = true;
    else if (/^-[fiIrRdv]+$/.test(arg)) {
      // POSIX short options, alone or clustered.
      recursive ||= /[rR]/.test(arg);
      force ||= arg.includes('f');
    } else if (/^-[a-z]+(?::\S*)?$/i.test(arg)) {
      // PowerShell parameters, which may be abbreviated and given as `-Recurse:$true`.
      const [param, value] = lower.slice(1).split(':');
      if (value === '$false') continue;
      recursive ||= 'recurse'.startsWith(param);
      force ||= param.length >= 2 && 'force'.startsWith(param);
    } else if (/^\/[a-z]$/i.test(arg)) {
      recursive ||= lower === '/s';
      quiet ||= lower === '/q';
    }
  }
  return recursive && (force || quiet);
}

/** The workspace folders, with the definition's own folder first. */
function workspaceRoots(server: DangerFlagSubject, context: DangerFlagContext): string[] {
  const roots = server.folder !== undefined ? [server.folder, ...context.workspaceFolders] : [...context.workspaceFolders];
  return roots.filter((root) => isAbsolutePath(root));
}

/** Flags a program (or an interpreter's script) given as a path outside every workspace folder and PATH directory. */
function checkProgramLocation(command: SimpleCommand, launch: LaunchDefinition, roots: string[], context: DangerFlagContext, flag: (id: DangerFlagId, detail: string) => void): void {
  const base = launch.cwd !== undefined ? resolvePath(roots[0], expandHomePrefix(launch.cwd, context.userHome)) : roots[0];
  const pathDirs = context.pathDirs.filter((dir) => isAbsolutePath(dir) && !isRoot(dir));
  const outside = (written: string, allowPath: boolean): boolean => {
    const text = expandWorkspaceFolder(expandHomePrefix(written, context.userHome), roots[0]);
    // An unexpanded `${input:…}` or `${env:…}` is not known yet; the prompt shows it as written.
    if (/\$\{[^}]*\}/.test(text)) return false;
    const resolved = resolvePath(base, text);
    if (resolved === undefined || roots.length === 0) return false;
    if (roots.some((root) => isWithin(root, resolved))) return false;
    return !(allowPath && pathDirs.some((dir) => isWithin(dir, resolved)));
  };

  const { program } = command;
  const isBare = !/[\\/]/.test(program) && !program.startsWith('~') && !program.startsWith('${');
  if (isBare) {
    // A bare name not found on PATH is looked up next to the working directory (Windows) or fails.
    if (context.isPathCommand !== undefined && !context.isPathCommand(program) && outside(program, false)) flag('outside-workspace', `command ${program}`);
  } else if (outside(program, true)) {
    flag('outside-workspace', `command ${program}`);
  }

  const script = interpreterScript(command);
  if (script !== undefined && outside(script, false)) flag('outside-workspace', `script ${script}`);
}

/**
 * Folders and files given as arguments outside every workspace folder (a filesystem server given
 * `/tmp` or `~`): absolute, home-relative or `..` paths, also as `--root=/x`. Paths in PATH
 * directories (programs) and the script an interpreter runs (flagged as such) are not repeated.
 */
function checkPathArguments(command: SimpleCommand, launch: LaunchDefinition, roots: string[], context: DangerFlagContext, flag: (id: DangerFlagId, detail: string) => void): void {
  if (roots.length === 0) return;
  const base = launch.cwd !== undefined ? resolvePath(roots[0], expandHomePrefix(launch.cwd, context.userHome)) : roots[0];
  const script = command.top ? interpreterScript(command) : undefined;
  const pathDirs = context.pathDirs.filter((dir) => isAbsolutePath(dir) && !isRoot(dir));
  for (const arg of command.args) {
    if (arg === script) continue;
    const value = /^--?[\w.-]+=(.+)$/s.exec(arg)?.[1] ?? arg;
    if (!looksLikePath(value)) continue;
    const resolved = resolvePath(base, expandWorkspaceFolder(expandHomePrefix(value, context.userHome), roots[0]));
    // A path of the other platform's form cannot name a folder of this workspace's machine.
    if (resolved === undefined || isWindowsPath(resolved) !== isWindowsPath(roots[0])) continue;
    if (roots.some((root) => isWithin(root, resolved))) continue;
    if (pathDirs.some((dir) => isWithin(dir, resolved)) || /^\/dev\/(?:null|std(?:in|out|err))$/.test(resolved)) continue;
    if (context.pathExists !== undefined && !context.pathExists(resolved)) continue;
    flag('outside-workspace', `argument ${clip(arg)}`);
  }
}

/** An absolute, home-relative or parent-relative path (not a URL, not an unresolved variable). */
function looksLikePath(text: string): boolean {
  // Not a URL, an unresolved variable or a cmd switch (`/c`, `/s`).
  if (/\$\{[^}]*\}/.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^\/[a-z?]$/i.test(text)) return false;
  return isAbsolutePath(text) || text === '~' || /^~[\\/]/.test(text) || text === '..' || /^\.\.[\\/]/.test(text);
}

/** Whether a path (as written) resolves outside every workspace folder. */
function isOutside(written: string, base: string | undefined, roots: string[], context: DangerFlagContext): boolean {
  if (roots.length === 0 || /\$\{[^}]*\}/.test(written)) return false;
  const resolved = resolvePath(base, expandHomePrefix(written, context.userHome));
  return resolved !== undefined && !roots.some((root) => isWithin(root, resolved));
}

function expandWorkspaceFolder(text: string, folder: string | undefined): string {
  return folder === undefined ? text : text.replace(/^\$\{workspaceFolder\}/, folder.replace(/[\\/]+$/, ''));
}

/** The script an interpreter runs (`node /x/server.js`, `pwsh -File x.ps1`), when given as a path. */
function interpreterScript(command: SimpleCommand): string | undefined {
  const { name, args } = command;
  if (POWERSHELLS.has(name)) {
    const at = args.findIndex((arg) => /^[-/]f(?:i|il|ile)?$/i.test(arg));
    return at >= 0 ? args[at + 1] : undefined;
  }
  const interpreter = name === 'bun' || name === 'deno' ? undefined : interpreterSpec(name);
  if (interpreter === undefined && name !== 'bun' && name !== 'deno' && !POSIX_SHELLS.has(name) && !FOREIGN_SHELLS.has(name)) return undefined;
  const positional = (name === 'deno' && args[0] === 'run' ? args.slice(1) : args).find((arg) => !arg.startsWith('-'));
  // `python -m module`, `node -e code`: the first positional is not a file then.
  const codeOptions = interpreter === undefined ? ['-c', '-e', '--eval', '-p', '--print'] : [...interpreter.code, ...(interpreter.module === undefined ? [] : [interpreter.module])];
  if (args.some((arg) => codeOptions.includes(arg))) return undefined;
  return positional !== undefined && /[\\/]/.test(positional) ? positional : undefined;
}

function isInjectionVar(name: string): boolean {
  return isExecVariable(name);
}

/** Private-address and plaintext-credential checks over the launch URL and URLs passed as arguments (`mcp-remote http://…`). */
function checkUrls(launch: LaunchDefinition, flag: (id: DangerFlagId, detail: string) => void): void {
  const candidates: { web: WebUrl; headers: string[] }[] = [];
  const headerNames = (record: Record<string, string>): string[] => Object.keys(record).filter((name) => isSecretName(name));
  if (launch.url !== undefined) {
    const web = parseWebUrl(launch.url);
    if (web !== undefined) candidates.push({ web, headers: headerNames(launch.headers ?? {}) });
  }
  const args = launch.args ?? [];
  // Header arguments (`--header "Authorization: Bearer …"`) belong to whichever URL the bridge connects to.
  const argHeaders = args.map((arg) => /^(?:--?[\w-]+=)?([A-Za-z0-9_-]+)\s*:\s*\S/.exec(arg)?.[1]).filter((name): name is string => name !== undefined && isSecretName(name));
  for (const arg of args) {
    for (const match of arg.matchAll(/\b(?:https?|wss?):\/\/[^\s"'<>]+/gi)) {
      const web = parseWebUrl(match[0]);
      if (web !== undefined) candidates.push({ web, headers: argHeaders });
    }
  }
  for (const { web, headers } of candidates) {
    const concern = addressConcern(web);
    if (concern !== undefined) flag('private-address', concern);
    if ((web.url.protocol === 'http:' || web.url.protocol === 'ws:') && !isLocalHost(web)) {
      const where = `${web.url.protocol}//${web.url.host}`;
      if (web.url.username !== '' || web.url.password !== '') flag('plaintext-credentials', `user name or password in the URL to ${where}`);
      const params = [...new Set(web.url.searchParams.keys())].filter((key) => isSecretName(key));
      if (params.length > 0) flag('plaintext-credentials', `${params.join(', ')} in the query string to ${where}`);
      if (headers.length > 0) flag('plaintext-credentials', `${headers.join(', ')} header to ${where}`);
    }
  }
}

/** A line cut to a length the prompt can show beside the full definition. */
function clip(text: string, max = 160): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
