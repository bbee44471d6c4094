// Validates one server entry and expands its variables. Wrong types are errors (coercing "8080" from 8080
// would hide a mistake the user wants to know about); an entry with any error is left out, and the rest of
// the file still loads.
import type { Node } from 'jsonc-parser';
import { describeNode, propertiesOf, type JsonProperty } from './jsonNodes';
import { parseOAuth } from './parseOAuth';
import { closestKnown, didYouMean, renameFix } from './suggestions';
import type { ParseContext } from './parseContext';
import type { AlwaysLoad, ConfigFix, LaunchDefinition, ServerEntry, TransportKind } from './types';
import { expandHome, expandVariables } from './variables';

const FIELDS = ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'timeout', 'disabled', 'alwaysLoad', 'allowedTools', 'disabledTools', 'oauth', 'roots'];
/** An absolute POSIX or Windows path (after `~` and variables are expanded). */
const ABSOLUTE_PATH = /^(?:\/|[A-Za-z]:[\\/]|\\\\)/;
/** Keys are lower case: `"Stdio"` or `"streamableHTTP"` are accepted as the obvious intent. */
const TRANSPORTS: Record<string, TransportKind> = {
  stdio: 'stdio', http: 'http', sse: 'sse', ws: 'ws', 'streamable-http': 'http', streamablehttp: 'http',
};
const VALID_TYPES = '"stdio", "http", "sse" or "ws" ("streamable-http" and "streamableHttp" mean "http")';
/** The types as they are written, for "did you mean". */
const TYPE_NAMES = ['stdio', 'http', 'sse', 'ws', 'streamable-http', 'streamableHttp'];
const VALID_NAME = /^[A-Za-z0-9_.-]+$/;
const LOCAL_ONLY_FIELDS = ['args', 'env', 'envFile', 'cwd'];

interface StringAt { value: string; node: Node }

/** Reads one `"name": { … }` entry; undefined when it has an error (the problems say why). */
export function parseServer(ctx: ParseContext, name: string, keyNode: Node, valueNode: Node, declaredInputs: ReadonlySet<string>): ServerEntry | undefined {
  if (valueNode.type !== 'object') {
    ctx.report(valueNode, 'error', 'wrong-type', `Server "${name}" must be an object like { "command": "npx", "args": ["-y", "some-server"] }, but it is ${describeNode(valueNode)}.`);
    return undefined;
  }
  if (!VALID_NAME.test(name)) {
    const what = name === '' ? 'is empty' : 'contains characters other than letters, digits, "_", "." and "-"';
    ctx.report(keyNode, 'warning', 'server-name', `Server name "${name}" ${what}; it will be shortened to a safe name in tool names. Rename it to avoid surprises.`);
  }
  return new EntryReader(ctx, name, keyNode, propertiesOf(valueNode), declaredInputs).read();
}

class EntryReader {
  private failed = false;
  private readonly needsInput: string[] = [];
  /** What `${NAME}` / `${env:NAME}` took from the environment in any field (secrets, see LaunchDefinition.expandedVars). */
  private readonly fromEnvironment: Record<string, string> = {};

  constructor(
    private readonly ctx: ParseContext,
    private readonly name: string,
    private readonly keyNode: Node,
    private readonly props: Map<string, JsonProperty>,
    private readonly declaredInputs: ReadonlySet<string>,
  ) {}

  read(): ServerEntry | undefined {
    for (const property of this.props.values()) {
      if (!FIELDS.includes(property.key)) {
        // A field the entry already has is not what a typo meant (renaming to it would make a duplicate key).
        const near = closestKnown(property.key, FIELDS.filter((field) => !this.props.has(field)));
        if (near !== undefined) {
          this.ctx.report(property.keyNode, 'warning', 'unknown-field', `Unknown field "${property.key}" in server "${this.name}", ignored; ${didYouMean(near)}`, renameFix(near, 'key'));
        } else {
          this.ctx.report(property.keyNode, 'warning', 'unknown-field', `Unknown field "${property.key}" in server "${this.name}", ignored. Known fields: ${FIELDS.join(', ')}.`);
        }
      }
    }
    const declaredType = this.transport();
    const command = this.string('command');
    if (command && command.value.trim() === '') {
      this.error(command.node, 'empty-command', `"command" of server "${this.name}" is empty; write the program to run, e.g. "npx".`);
    }
    const args = this.stringArray('args');
    const env = this.stringMap('env');
    const envFile = this.string('envFile');
    const cwd = this.string('cwd');
    const url = this.string('url');
    const headers = this.stringMap('headers');
    const timeout = this.positiveNumber('timeout');
    const disabled = this.boolean('disabled');
    const alwaysLoad = this.alwaysLoad();
    const allowedTools = this.stringArray('allowedTools');
    const disabledTools = this.stringArray('disabledTools');

    const hasCommand = this.props.has('command');
    const hasUrl = this.props.has('url');
    if (hasCommand && hasUrl) {
      this.error(this.props.get('url')!.keyNode, 'conflicting-fields', `Server "${this.name}" has both "command" and "url"; a server is either a local program ("command") or a remote endpoint ("url"). Remove one of them.`);
    } else if (!hasCommand && !hasUrl) {
      this.error(this.keyNode, 'missing-command-or-url', `Server "${this.name}" needs a "command" (a local program to run) or a "url" (a remote server).`);
    } else if (declaredType) {
      this.checkTypeAgainstFields(declaredType, hasCommand);
    }

    // Only the fields the transport uses are expanded: an unset variable in an ignored field is no reason to
    // drop the server (the field gets an "ignored-field" warning instead).
    const local = declaredType ? declaredType.kind === 'stdio' : hasCommand;
    let launch: LaunchDefinition;
    if (local) {
      launch = {
        type: 'stdio',
        command: command && this.expand(command, true),
        args: args?.map((arg) => this.expand(arg, false)) ?? [],
        env: env ? this.expandMap(env) : {},
        headers: {},
      };
      const expandedEnvFile = envFile && this.expand(envFile, true);
      if (expandedEnvFile !== undefined) launch.envFile = expandedEnvFile;
      if (cwd) launch.cwd = this.expand(cwd, true);
    } else {
      const expandedUrl = url && this.expand(url, false);
      const type = declaredType?.kind ?? inferRemoteType(expandedUrl);
      if (url && expandedUrl !== undefined) this.checkUrl(url.node, expandedUrl, declaredType?.kind);
      launch = { type, url: expandedUrl, args: [], env: {}, headers: headers ? this.expandMap(headers) : {} };
      const oauthNode = this.props.get('oauth')?.valueNode;
      if (oauthNode) {
        const oauth = parseOAuth(this.ctx, this.name, oauthNode, {
          expand: (value, node) => this.expand({ value, node }, false),
          error: (node, code, message) => this.error(node, code, message),
        });
        if (oauth) launch.oauth = oauth;
      }
    }
    const roots = this.roots();
    if (roots !== undefined) launch.roots = roots;
    // With both or neither of command/url the transport is a guess; warnings about ignored fields would mislead.
    if (hasCommand !== hasUrl) this.warnIgnoredFields(launch.type);
    if (this.failed) return undefined;
    if (Object.keys(this.fromEnvironment).length > 0) launch.expandedVars = this.fromEnvironment;

    const entry: ServerEntry = {
      name: this.name,
      scope: this.ctx.spec.scope,
      launch,
      disabled: disabled ?? false,
      alwaysLoad: alwaysLoad ?? false,
      needsInput: this.needsInput,
      source: this.ctx.rangeOf(this.keyNode),
    };
    if (this.ctx.spec.folder !== undefined) entry.folder = this.ctx.spec.folder;
    if (timeout !== undefined) entry.timeout = timeout;
    if (allowedTools) entry.allowedTools = allowedTools.map((tool) => tool.value);
    if (disabledTools) entry.disabledTools = disabledTools.map((tool) => tool.value);
    return entry;
  }

  private transport(): { kind: TransportKind; node: Node; raw: string } | undefined {
    const type = this.string('type');
    if (!type) return undefined;
    const kind = TRANSPORTS[type.value.toLowerCase()];
    if (!kind) {
      const near = closestKnown(type.value, TYPE_NAMES);
      const advice = near !== undefined ? `${didYouMean(near)} Use` : 'use';
      this.error(type.node, 'unknown-type', `Unknown server type "${type.value}" in server "${this.name}"; ${advice} ${VALID_TYPES}.`, near !== undefined ? renameFix(near, 'value') : undefined);
      return undefined;
    }
    return { kind, node: type.node, raw: type.value };
  }

  private checkTypeAgainstFields(type: { kind: TransportKind; node: Node; raw: string }, hasCommand: boolean): void {
    if (type.kind === 'stdio' && !hasCommand) {
      this.error(type.node, 'type-mismatch', `Server "${this.name}" has type "${type.raw}", which runs a local "command", but it only has a "url". Use "type": "http" (or "sse", "ws") for a remote server.`);
    } else if (type.kind !== 'stdio' && hasCommand) {
      this.error(type.node, 'type-mismatch', `Server "${this.name}" has type "${type.raw}", which connects to a "url", but it only has a "command". Use "type": "stdio" for a local program.`);
    }
  }

  private checkUrl(node: Node, url: string, declared: TransportKind | undefined): void {
    // Requiring `://` keeps `localhost:3000` from reading as a URL with the scheme "localhost".
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1].toLowerCase();
    if (scheme === undefined) {
      this.error(node, 'bad-url', `"url" of server "${this.name}" is not a valid URL ("${url}"); write a full URL such as "https://example.com/mcp".`);
      return;
    }
    if (!['http', 'https', 'ws', 'wss'].includes(scheme)) {
      this.error(node, 'bad-url', `"url" of server "${this.name}" uses "${scheme}:"; only http://, https://, ws:// and wss:// URLs are supported.`);
      return;
    }
    // A `${input:…}` placeholder is not valid inside a host name yet; the full check waits for the value.
    if (!url.includes('${input:') && !isParseableUrl(url)) {
      this.error(node, 'bad-url', `"url" of server "${this.name}" is not a valid URL ("${url}"); check the host name and port.`);
      return;
    }
    const socket = scheme === 'ws' || scheme === 'wss';
    if (declared === 'ws' && !socket) {
      this.error(node, 'type-mismatch', `Server "${this.name}" has type "ws", which needs a ws:// or wss:// URL; for an ${scheme}:// URL use "type": "http" or "sse".`);
    } else if ((declared === 'http' || declared === 'sse') && socket) {
      this.error(node, 'type-mismatch', `Server "${this.name}" has type "${declared}", which needs an http:// or https:// URL; for a ${scheme}:// URL use "type": "ws".`);
    }
  }

  private warnIgnoredFields(type: TransportKind): void {
    const ignored = type === 'stdio' ? ['headers', 'oauth'] : LOCAL_ONLY_FIELDS;
    for (const field of ignored) {
      const property = this.props.get(field);
      if (!property) continue;
      const why = type === 'stdio' ? 'a local (stdio) server' : `a remote (${type}) server`;
      this.ctx.report(property.keyNode, 'warning', 'ignored-field', `"${field}" has no effect for ${why} like "${this.name}", ignored.`);
    }
  }

  private expand(at: StringAt, home: boolean): string {
    const vars = this.ctx.spec.vars;
    const expansion = expandVariables(home ? expandHome(at.value, vars.userHome) : at.value, vars);
    this.ctx.reportVariableIssues(at.node, expansion.issues);
    if (expansion.issues.some((issue) => issue.severity === 'error')) this.failed = true;
    for (const [name, value] of Object.entries(expansion.fromEnvironment)) {
      Object.defineProperty(this.fromEnvironment, name, { value, enumerable: true, writable: true, configurable: true });
    }
    for (const id of expansion.inputs) {
      if (!this.needsInput.includes(id)) this.needsInput.push(id);
      if (!this.declaredInputs.has(id)) {
        this.ctx.reportVariableIssues(at.node, [{
          severity: 'warning', code: 'undeclared-input', token: `\${input:${id}}`,
          message: `\${input:${id}} is not declared in "inputs"; you will be asked for it as plain text. Declare it to describe it or hide it: { "id": "${id}", "type": "promptString", "password": true }.`,
        }]);
      }
    }
    return expansion.value;
  }

  private expandMap(entries: { key: string; at: StringAt }[]): Record<string, string> {
    const result: Record<string, string> = {};
    for (const { key, at } of entries) result[key] = this.expand(at, false);
    return result;
  }

  private error(node: Node, code: string, message: string, fix?: ConfigFix): void {
    this.failed = true;
    this.ctx.report(node, 'error', code, message, fix);
  }

  private wrongType(node: Node, field: string, expected: string): void {
    this.error(node, 'wrong-type', `"${field}" of server "${this.name}" must be ${expected}, but it is ${describeNode(node)}.`);
  }

  private string(field: string): StringAt | undefined {
    const node = this.props.get(field)?.valueNode;
    if (!node) return undefined;
    if (node.type !== 'string') { this.wrongType(node, field, 'a string'); return undefined; }
    return { value: node.value as string, node };
  }

  private boolean(field: string): boolean | undefined {
    const node = this.props.get(field)?.valueNode;
    if (!node) return undefined;
    if (node.type !== 'boolean') { this.wrongType(node, field, 'true or false'); return undefined; }
    return node.value as boolean;
  }

  /** `true`/`false` for all of the server's tools, or the names (`*` patterns) of the tools to always send. */
  private alwaysLoad(): AlwaysLoad | undefined {
    const node = this.props.get('alwaysLoad')?.valueNode;
    if (!node) return undefined;
    if (node.type === 'array') return this.stringArray('alwaysLoad')?.map((tool) => tool.value);
    if (node.type !== 'boolean') { this.wrongType(node, 'alwaysLoad', 'true, false or an array of tool names, like ["read_file", "search_*"]'); return undefined; }
    return node.value as boolean;
  }

  /** `false` (no roots), `true` (the workspace folders, as when absent) or absolute folders (`~` and variables expanded). */
  private roots(): false | string[] | undefined {
    const node = this.props.get('roots')?.valueNode;
    if (!node) return undefined;
    if (node.type === 'boolean') return node.value === false ? false : undefined;
    if (node.type !== 'array') { this.wrongType(node, 'roots', 'false, true or an array of folders, like ["~/notes", "${workspaceFolder}/docs"]'); return undefined; }
    const folders: string[] = [];
    for (const item of this.stringArray('roots') ?? []) {
      // A root is where the server may work: it is read from the file, never typed in at launch.
      if (item.value.includes('${input:')) {
        this.error(item.node, 'wrong-type', `"roots" of server "${this.name}" cannot use \${input:…}; write the folder.`);
        continue;
      }
      const folder = this.expand(item, true);
      if (!ABSOLUTE_PATH.test(folder)) {
        this.error(item.node, 'wrong-type', `"roots" of server "${this.name}" must hold absolute folders (or start with ~ or \${workspaceFolder}), but "${folder}" is relative.`);
      } else if (!folders.includes(folder)) {
        folders.push(folder);
      }
    }
    return folders;
  }

  private positiveNumber(field: string): number | undefined {
    const node = this.props.get(field)?.valueNode;
    if (!node) return undefined;
    const value = node.value as unknown;
    if (node.type !== 'number' || typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      this.error(node, 'wrong-type', `"${field}" of server "${this.name}" must be a positive number of milliseconds, e.g. 30000, but it is ${node.type === 'number' ? String(value) : describeNode(node)}.`);
      return undefined;
    }
    return value;
  }

  private stringArray(field: string): StringAt[] | undefined {
    const node = this.props.get(field)?.valueNode;
    if (!node) return undefined;
    if (node.type !== 'array') { this.wrongType(node, field, 'an array of strings, like ["a", "b"]'); return undefined; }
    const items: StringAt[] = [];
    (node.children ?? []).forEach((item, index) => {
      if (item.type === 'string') items.push({ value: item.value as string, node: item });
      else this.error(item, 'wrong-type', `"${field}" of server "${this.name}" must contain only strings, but item ${index + 1} is ${describeNode(item)}${quoteHint(item)}.`);
    });
    return items;
  }

  private stringMap(field: string): { key: string; at: StringAt }[] | undefined {
    const node = this.props.get(field)?.valueNode;
    if (!node) return undefined;
    if (node.type !== 'object') { this.wrongType(node, field, 'an object of strings, like { "KEY": "value" }'); return undefined; }
    const entries: { key: string; at: StringAt }[] = [];
    for (const { key, valueNode } of propertiesOf(node).values()) {
      if (!valueNode) continue;
      if (valueNode.type === 'string') entries.push({ key, at: { value: valueNode.value as string, node: valueNode } });
      else this.error(valueNode, 'wrong-type', `${field} "${key}" of server "${this.name}" must be a string, but it is ${describeNode(valueNode)}${quoteHint(valueNode)}.`);
    }
    return entries;
  }
}

/** Without a `type`, a ws:// URL can only mean a WebSocket server; anything else is Streamable HTTP. */
function inferRemoteType(url: string | undefined): TransportKind {
  return url !== undefined && /^wss?:/i.test(url) ? 'ws' : 'http';
}

function isParseableUrl(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

function quoteHint(node: Node): string {
  return node.type === 'number' || node.type === 'boolean' ? `; write it in quotes: "${String(node.value)}"` : '';
}
