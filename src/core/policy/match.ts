// The policy matcher: whether a server is denied, and by which rule. A deny rule always wins; with
// "only allowlisted servers", a server no allow rule matches is denied too. What a rule compares is read
// from the server's expanded launch definition: its name, command, URL, fingerprint, and the npm or PyPI
// package its runner starts.
import type { EffectiveServer } from '../config/types';
import type { Policy, PolicyVerdict, ServerRule, SourcedRule } from './types';

const NPM_RUNNERS: Record<string, readonly string[]> = { npx: [], bunx: [], pnpm: ['dlx'], npm: ['exec'], yarn: ['dlx'], pnpx: [] };
const PYPI_RUNNERS: Record<string, readonly string[]> = { uvx: [], uv: ['tool', 'run'], pipx: ['run'] };
// Runner options that take a value: the word after them is not the package.
const VALUE_OPTIONS = new Set(['-p', '--package', '--from', '--with', '--python', '-c', '--call', '--index', '--index-url', '--registry', '--spec']);

/** The policy's verdict on one server. */
export function evaluatePolicy(policy: Policy, server: EffectiveServer): PolicyVerdict {
  // What the policy itself provides is what the administrator wants run.
  if (server.scope === 'managed') return { verdict: 'allowed', rule: server.source.file, reason: `provided by the policy (${server.source.file})` };
  if (policy.unreadable !== undefined) return { verdict: 'denied', rule: policy.unreadable, reason: `blocked by policy: ${policy.unreadable}; no server runs until it is fixed` };
  const denied = policy.denied.find((sourced) => matches(sourced.rule, server));
  if (denied !== undefined) return { verdict: 'denied', rule: denied.origin, reason: `blocked by policy: ${describeRule(denied)}` };
  const allowed = policy.allowed.find((sourced) => matches(sourced.rule, server));
  if (allowed !== undefined) return { verdict: 'allowed', rule: allowed.origin, reason: `allowed by policy: ${describeRule(allowed)}` };
  if (policy.onlyAllowlisted !== undefined) {
    return { verdict: 'denied', rule: policy.onlyAllowlisted, reason: `blocked by policy: only allowlisted servers may run (${policy.onlyAllowlisted}) and no allowedServers rule matches it` };
  }
  return { verdict: 'allowed', reason: 'no policy rule applies' };
}

/** Whether every field of the rule matches the server (a rule without fields matches nothing). */
export function matches(rule: ServerRule, server: EffectiveServer): boolean {
  const checks: boolean[] = [];
  const { command, url } = server.launch;
  if (rule.name !== undefined) checks.push(glob(rule.name, server.name) || glob(rule.name, server.id));
  if (rule.command !== undefined) checks.push(command !== undefined && (glob(rule.command, command) || glob(rule.command, baseName(command))));
  if (rule.url !== undefined) checks.push(url !== undefined && glob(rule.url, url));
  if (rule.fingerprint !== undefined) checks.push(rule.fingerprint.toLowerCase() === server.fingerprint.toLowerCase());
  if (rule.npm !== undefined) checks.push(packageOf(server, NPM_RUNNERS, npmName).some((name) => glob(rule.npm!, name)));
  if (rule.pypi !== undefined) checks.push(packageOf(server, PYPI_RUNNERS, pypiName).some((name) => glob(rule.pypi!, name.toLowerCase())));
  return checks.length > 0 && checks.every(Boolean);
}

/** The package a runner command starts, e.g. `@scope/pkg` of `npx -y @scope/pkg@1.2 --flag`. */
export function packageOf(server: EffectiveServer, runners: Record<string, readonly string[]>, name: (word: string) => string): string[] {
  const { command, args } = server.launch;
  if (command === undefined) return [];
  const runner = baseName(command).replace(/\.(cmd|exe|bat|ps1)$/i, '');
  const subcommand = Object.prototype.hasOwnProperty.call(runners, runner) ? runners[runner] : undefined;
  if (subcommand === undefined) return [];
  if (subcommand.some((word, index) => args[index] !== word)) return [];
  const found: string[] = [];
  for (let i = subcommand.length; i < args.length; i++) {
    const word = args[i];
    // `--package=x` / `--from x` name the package explicitly.
    const explicit = /^--(package|from)=(.+)$/.exec(word);
    if (explicit !== null) found.push(name(explicit[2]));
    if (word === '--package' || word === '-p' || word === '--from') {
      if (args[i + 1] !== undefined) found.push(name(args[i + 1]));
      i++;
      continue;
    }
    if (VALUE_OPTIONS.has(word)) { i++; continue; }
    if (word === '--') continue;
    if (word.startsWith('-')) continue;
    found.push(name(word));
    break;
  }
  return found;
}

/** `@scope/pkg@1.2.3` → `@scope/pkg`; `pkg@latest` → `pkg`. */
function npmName(word: string): string {
  const at = word.indexOf('@', word.startsWith('@') ? 1 : 0);
  return at < 0 ? word : word.slice(0, at);
}

/** `pkg[extra]==1.0` / `pkg@1.0` → `pkg`. */
function pypiName(word: string): string {
  return word.split(/[[=<>!~@ ]/)[0];
}

function baseName(command: string): string {
  return command.split(/[\\/]/).pop() ?? command;
}

/** `*` matches any run of characters; nothing else is special. */
export function glob(pattern: string, value: string): boolean {
  const parts = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's').test(value);
}

function describeRule(sourced: SourcedRule): string {
  const fields = Object.entries(sourced.rule).map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(', ');
  return `${sourced.origin} (${fields})`;
}
