// Typosquat checks for packages a launch downloads and runs (`npx`, `uvx`, `pnpm dlx`, …). A name one
// edit away from a well-known MCP server, or under a look-alike of its scope, is what an attacker
// publishes to catch a misspelt config; the real package and unrelated names pass.
import type { SimpleCommand } from './commandLine';

export type PackageEcosystem = 'npm' | 'pypi';

/** A package a command would fetch and run. */
export interface PackageRun {
  /** The package name as written, without version or extras. */
  name: string;
  ecosystem: PackageEcosystem;
}

/**
 * Widely used MCP server packages (npm, then PyPI), the names typosquatters imitate. Only packages that
 * exist: the reference servers that were only ever published to PyPI appear under their PyPI names.
 */
export const WELL_KNOWN_MCP_PACKAGES: readonly string[] = [
  '@modelcontextprotocol/server-everything',
  '@modelcontextprotocol/server-filesystem',
  '@modelcontextprotocol/server-memory',
  '@modelcontextprotocol/server-github',
  '@modelcontextprotocol/server-gitlab',
  '@modelcontextprotocol/server-puppeteer',
  '@modelcontextprotocol/server-postgres',
  '@modelcontextprotocol/server-slack',
  '@modelcontextprotocol/server-brave-search',
  '@modelcontextprotocol/server-google-maps',
  '@modelcontextprotocol/server-sequential-thinking',
  '@modelcontextprotocol/server-gdrive',
  '@modelcontextprotocol/server-redis',
  '@modelcontextprotocol/server-aws-kb-retrieval',
  '@modelcontextprotocol/server-everart',
  '@modelcontextprotocol/inspector',
  '@playwright/mcp',
  '@upstash/context7-mcp',
  '@browsermcp/mcp',
  '@notionhq/notion-mcp-server',
  '@supabase/mcp-server-supabase',
  '@sentry/mcp-server',
  '@stripe/mcp',
  '@azure/mcp',
  '@cloudflare/mcp-server-cloudflare',
  '@executeautomation/playwright-mcp-server',
  '@brave/brave-search-mcp-server',
  '@heroku/mcp-server',
  'firecrawl-mcp',
  'mcp-remote',
  'chrome-devtools-mcp',
  'tavily-mcp',
  'exa-mcp-server',
  'figma-developer-mcp',
  'mcp-server-fetch',
  'mcp-server-git',
  'mcp-server-time',
  'mcp-server-sqlite',
  'mcp-server-sentry',
];

const KNOWN = new Set(WELL_KNOWN_MCP_PACKAGES);
const KNOWN_SCOPES = new Set(WELL_KNOWN_MCP_PACKAGES.filter((name) => name.startsWith('@')).map((name) => name.slice(1, name.indexOf('/'))));
/** Scopes shorter than this are compared by look-alike letters only: one edit from a short scope is too easy to hit honestly. */
const MIN_SCOPE_FOR_EDITS = 6;

interface Runner {
  ecosystem: PackageEcosystem;
  /** Options that take a value (the value is skipped). */
  valueOptions: ReadonlySet<string>;
  /** Options whose value names a package; true when the positional argument then names a program instead. */
  packageOptions: Readonly<Record<string, boolean>>;
}

const NPX: Runner = { ecosystem: 'npm', valueOptions: new Set(['-p', '--package', '-c', '--call', '--registry', '--cache', '--userconfig', '-w', '--workspace']), packageOptions: { '-p': true, '--package': true } };
const PNPM_DLX: Runner = { ecosystem: 'npm', valueOptions: new Set(['--package', '-C', '--dir', '--reporter']), packageOptions: { '--package': true } };
const UVX: Runner = {
  ecosystem: 'pypi',
  valueOptions: new Set(['--from', '--with', '-w', '--with-editable', '--with-requirements', '-p', '--python', '--index', '--index-url', '--extra-index-url', '--default-index', '-f', '--find-links', '-c', '--constraints', '--overrides', '--directory', '--project', '--config-file', '--cache-dir', '--env-file', '--index-strategy', '--keyring-provider', '--resolution', '--prerelease', '--exclude-newer', '--link-mode', '--color']),
  packageOptions: { '--from': true, '--with': false, '-w': false },
};
const PIPX_RUN: Runner = { ecosystem: 'pypi', valueOptions: new Set(['--spec', '--python', '--pip-args', '--index-url']), packageOptions: { '--spec': true } };

/** The packages a command fetches and runs, for the runners that do that: npx, npm exec, pnpm dlx, yarn dlx, bunx, uvx, uv tool run, pipx run. */
export function packagesRun(command: SimpleCommand): PackageRun[] {
  const { name, args } = command;
  if (name === 'npx' || name === 'pnpx' || name === 'bunx') return fromRunner(NPX, args);
  if (name === 'npm' && (args[0] === 'exec' || args[0] === 'x')) return fromRunner(NPX, args.slice(1));
  if (name === 'bun' && args[0] === 'x') return fromRunner(NPX, args.slice(1));
  if (name === 'yarn' && args[0] === 'dlx') return fromRunner(NPX, args.slice(1));
  if (name === 'pnpm' && args[0] === 'dlx') return fromRunner(PNPM_DLX, args.slice(1));
  if (name === 'uvx') return fromRunner(UVX, args);
  if (name === 'uv' && args[0] === 'tool' && args[1] === 'run') return fromRunner(UVX, args.slice(2));
  if (name === 'pipx' && args[0] === 'run') return fromRunner(PIPX_RUN, args.slice(1));
  return [];
}

function fromRunner(runner: Runner, args: string[]): PackageRun[] {
  const specs: string[] = [];
  let positionalIsProgram = false;
  let positional: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      positional = args[i + 1];
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional = arg;
      break;
    }
    const eq = arg.indexOf('=');
    const option = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : args[i + 1];
    if (eq < 0 && runner.valueOptions.has(option)) i++;
    const replaces = runner.packageOptions[option];
    if (replaces !== undefined && value !== undefined) {
      specs.push(value);
      positionalIsProgram ||= replaces;
    }
  }
  if (positional !== undefined && !positionalIsProgram) specs.push(positional);
  return specs.map((spec) => packageName(spec, runner.ecosystem)).filter((name): name is string => name !== undefined).map((name) => ({ name, ecosystem: runner.ecosystem }));
}

/** The registry package name in a spec (`@scope/name@1.2.3` → `@scope/name`, `pkg[extra]==1.0` → `pkg`); undefined for paths, URLs and git specs. */
export function packageName(spec: string, ecosystem: PackageEcosystem): string | undefined {
  let text = spec.trim();
  if (ecosystem === 'npm') {
    text = text.replace(/^npm:/i, '');
    if (/^(?:[./~\\]|[a-z][a-z0-9+.-]*:)/i.test(text)) return undefined;
    if (text.startsWith('@')) {
      const at = text.indexOf('@', 1);
      const name = at < 0 ? text : text.slice(0, at);
      return /^@[^/\s]+\/[^/\s]+$/.test(name) ? name : undefined;
    }
    const name = text.split('@')[0];
    // `owner/repo` is GitHub shorthand, not a registry package.
    return name !== '' && !name.includes('/') ? name : undefined;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || /^[./~\\]/.test(text)) return undefined;
  return /^[\p{L}\p{N}][\p{L}\p{N}._-]*/u.exec(text)?.[0];
}

/** Why `name` looks like a typosquat of a well-known MCP package, or undefined when it does not. */
export function typosquatReason(run: PackageRun): string | undefined {
  const name = run.ecosystem === 'pypi' ? normalizePypi(run.name) : run.name;
  if (KNOWN.has(name)) return undefined;
  const quoted = JSON.stringify(run.name);
  if (/[^\x20-\x7e]/.test(name)) return `${quoted} contains non-ASCII look-alike letters`;
  const lower = name.toLowerCase();
  for (const known of WELL_KNOWN_MCP_PACKAGES) {
    if (lower === known) {
      if (run.ecosystem === 'pypi') return undefined; // PyPI names ignore case.
      return `${quoted} differs from ${JSON.stringify(known)} only in letter case`;
    }
    if (editDistanceAtMost1(lower, known)) return `${quoted} is one typo away from ${JSON.stringify(known)}`;
    if (skeleton(lower) === skeleton(known)) return `${quoted} looks like ${JSON.stringify(known)}`;
  }
  if (lower.startsWith('@') && lower.includes('/')) {
    const scope = lower.slice(1, lower.indexOf('/'));
    if (!KNOWN_SCOPES.has(scope)) {
      for (const known of KNOWN_SCOPES) {
        const near = skeleton(scope) === skeleton(known) || (Math.min(scope.length, known.length) >= MIN_SCOPE_FOR_EDITS && editDistanceAtMost1(scope, known));
        if (near) return `${quoted} is published under @${scope}, a look-alike of @${known}`;
      }
    }
  }
  return undefined;
}

/** PEP 503 normalisation: case and runs of `-`, `_`, `.` do not distinguish PyPI names. */
function normalizePypi(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** Letters that read alike folded together and separators dropped, so `@model-context-protoco1` meets `@modelcontextprotocol`. */
function skeleton(text: string): string {
  return text
    .toLowerCase()
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/[0]/g, 'o')
    .replace(/[1i|]/g, 'l')
    .replace(/[-_.]/g, '');
}

/** Whether two strings are at most one edit apart: one insertion, deletion, substitution or swap of neighbours (Damerau-Levenshtein ≤ 1). */
export function editDistanceAtMost1(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  const restA = a.slice(start);
  const restB = b.slice(start);
  if (restA.length === restB.length) {
    if (restA.slice(1) === restB.slice(1)) return true; // substitution
    return restA.length >= 2 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2); // transposition
  }
  return restA.length > restB.length ? restA.slice(1) === restB : restB.slice(1) === restA; // deletion / insertion
}
