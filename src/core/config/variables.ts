// `${…}` expansion for server definitions. An unresolved variable is reported, never replaced by an
// empty string: a silently empty API key or path makes a server fail far away from the real cause.
import type { VariableContext } from './types';

/** Something wrong with one `${…}` reference; `token` is the exact text (e.g. `${API_KEY}`) so callers can locate it. */
export interface VariableIssue {
  severity: 'error' | 'warning';
  code: 'unresolved-variable' | 'unknown-variable';
  token: string;
  /** Index of `token` in the string that was expanded. */
  index: number;
  message: string;
}

/** The result of expanding one string. */
export interface Expansion {
  value: string;
  /** Ids of `${input:id}` references, left verbatim in `value` until the user supplies them. */
  inputs: string[];
  /** What `${NAME}` / `${env:NAME}` took from the environment (name → value); a default written in the file is not here. */
  fromEnvironment: Record<string, string>;
  issues: VariableIssue[];
}

const SUPPORTED = '${NAME}, ${NAME:-default}, ${env:NAME}, ${workspaceFolder}, ${userHome}, ${extensionPath} or ${input:id}';
// `[^{}]*` keeps a lone `$` or an unclosed `${` literal: only a complete `${…}` is a reference.
const REFERENCE = /\$\{([^{}]*)\}/g;
const ENV_NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/** Expands every `${…}` reference in `text`; unresolved ones stay verbatim and are reported as issues. */
export function expandVariables(text: string, vars: VariableContext): Expansion {
  const inputs: string[] = [];
  const issues: VariableIssue[] = [];
  const fromEnvironment: Record<string, string> = {};
  const value = text.replace(REFERENCE, (token: string, inner: string, index: number) => {
    const resolved = resolve(inner, vars);
    if (resolved.kind === 'value') {
      // defineProperty: a variable named "__proto__" is kept as a name.
      if (resolved.from !== undefined) Object.defineProperty(fromEnvironment, resolved.from, { value: resolved.value, enumerable: true, writable: true, configurable: true });
      return resolved.value;
    }
    if (resolved.kind === 'input') {
      if (!inputs.includes(resolved.id)) inputs.push(resolved.id);
      return token;
    }
    issues.push({ severity: 'error', code: resolved.code, token, index, message: resolved.message });
    return token;
  });
  return { value, inputs, fromEnvironment, issues };
}

/** Replaces a leading `~` (alone, or before `/` or `\`) with the user's home folder, as a shell would. */
export function expandHome(text: string, userHome: string): string {
  if (text !== '~' && !text.startsWith('~/') && !text.startsWith('~\\')) return text;
  return userHome.replace(/[\\/]+$/, '') + text.slice(1);
}

type Resolution =
  | { kind: 'value'; value: string; from?: string }
  | { kind: 'input'; id: string }
  | { kind: 'problem'; code: VariableIssue['code']; message: string };

function resolve(inner: string, vars: VariableContext): Resolution {
  switch (inner) {
    case 'userHome':
      return { kind: 'value', value: vars.userHome };
    case 'workspaceFolder':
      return vars.workspaceFolder !== undefined
        ? { kind: 'value', value: vars.workspaceFolder }
        : unresolved('${workspaceFolder} only works in a workspace folder\'s .mcp.json or its local servers file; write an absolute path here instead');
    case 'extensionPath':
      return vars.extensionPath !== undefined
        ? { kind: 'value', value: vars.extensionPath }
        : unresolved('${extensionPath} only works in servers contributed by an extension; write an absolute path here instead');
  }
  if (inner.startsWith('input:')) {
    const id = inner.slice('input:'.length);
    if (id.trim() !== '') return { kind: 'input', id };
    return { kind: 'problem', code: 'unknown-variable', message: '${input:} needs the id of an entry in "inputs", e.g. ${input:api-key}' };
  }
  if (inner.startsWith('env:')) {
    const name = inner.slice('env:'.length);
    const value = name === '' ? undefined : vars.env[name];
    return value !== undefined
      ? { kind: 'value', value, from: name }
      : unresolved(`\${env:${name}} is not set in the environment; set ${name || 'it'} before starting VS Code, or write \${${name || 'NAME'}:-default} to give a fallback`);
  }
  const match = ENV_NAME.exec(inner);
  if (match) {
    const [, name, fallback] = match;
    const value = vars.env[name];
    // Shell semantics: `:-` also replaces a variable that is set but empty.
    if (fallback !== undefined) return value !== undefined && value !== '' ? { kind: 'value', value, from: name } : { kind: 'value', value: fallback };
    return value !== undefined
      ? { kind: 'value', value, from: name }
      : unresolved(`\${${name}} is not set in the environment; set it or write \${${name}:-default}`);
  }
  return { kind: 'problem', code: 'unknown-variable', message: `\${${inner}} is not a supported variable; use ${SUPPORTED}` };
}

function unresolved(message: string): Resolution {
  return { kind: 'problem', code: 'unresolved-variable', message };
}
