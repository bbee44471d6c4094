// Install links: `vscode://mcp-switchboard.mcp-switchboard/install?{json}` in the shape VS Code's own
// `vscode:mcp/install?{json}` links have (a URL-encoded JSON object: `name` plus the server's definition,
// optionally `inputs`), and VS Code's `?name=NAME&config={json}` form. A link is hostile input: it is
// bounded in size, must be one JSON object, and is read as VS Code's mcp.json would read the definition;
// every field that is not taken is listed for the person, and a link never names the scope it goes into.
import { readHostFile } from '../import';
import type { ImportedEntry, ImportedInput } from '../import/types';
import { serverNameProblem } from './serverName';

/** A link's query longer than this (after decoding) is refused. */
export const MAX_LINK_BYTES = 16 * 1024;
/** Fields of the link object that are not part of the server's definition. */
const LINK_FIELDS = new Set(['name', 'inputs']);

/** What a link asks to install, for the review dialog. */
export interface LinkedServer {
  name: string;
  entry: ImportedEntry;
  inputs: ImportedInput[];
  /** Fields of the link that are not installed, each with the reason: shown before anything is written. */
  leftOut: string[];
}

/** A link that cannot be installed, said for a person. */
export class InstallLinkError extends Error {}

/**
 * Reads the query of an install link: percent-encoded as written in the link, or already `decoded` (as
 * VS Code hands a URI's query to a handler).
 */
export function parseInstallLink(rawQuery: string, options: { decoded?: boolean } = {}): LinkedServer {
  if (rawQuery.length > MAX_LINK_BYTES * 3) throw new InstallLinkError(`the link is ${rawQuery.length} characters long, more than an install link may be (${MAX_LINK_BYTES} bytes of definition)`);
  const query = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  let text: string;
  let name: string | undefined;
  if (/^(name|config)=/.test(query)) {
    const parts = options.decoded === true ? splitDecoded(query) : (() => {
      const params = new URLSearchParams(query);
      return { name: params.get('name') ?? undefined, config: params.get('config') ?? undefined };
    })();
    name = parts.name;
    text = parts.config ?? '';
    if (text === '') throw new InstallLinkError('the link has no "config" (the server\'s definition as JSON)');
  } else if (options.decoded === true) {
    text = query;
  } else {
    try {
      text = decodeURIComponent(query);
    } catch {
      throw new InstallLinkError('the link is not percent-encoded correctly');
    }
  }
  if (text.length > MAX_LINK_BYTES) throw new InstallLinkError(`the definition is ${text.length} bytes, more than the ${MAX_LINK_BYTES} an install link may carry`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InstallLinkError(`the link's definition is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InstallLinkError('the link\'s definition must be one JSON object, like {"name":"x","command":"npx","args":["-y","pkg"]}');
  const object = value as Record<string, unknown>;
  name ??= typeof object.name === 'string' ? object.name : undefined;
  if (name === undefined) throw new InstallLinkError('the link gives no "name" for the server');
  checkName(name);
  const definition = Object.fromEntries(Object.entries(object).filter(([key]) => !LINK_FIELDS.has(key)));
  if (Object.keys(definition).length === 0) throw new InstallLinkError(`the link gives "${name}" no definition (a "command" or a "url")`);
  const inputs = object.inputs;
  const read = readHostFile('vscode', 'the install link', JSON.stringify({ servers: { [name]: definition }, ...(inputs !== undefined ? { inputs } : {}) }));
  const server = read.servers[0];
  const leftOut = read.skipped.filter((item) => !item.reason.startsWith('not imported:')).map((item) => item.reason);
  if (server === undefined) {
    const reason = read.skipped.find((item) => item.reason.startsWith('not imported:'))?.reason.replace(/^not imported: /, '') ?? read.problems[0]?.message ?? 'it cannot be read';
    throw new InstallLinkError(`"${name}" cannot be installed: ${reason}`);
  }
  for (const problem of read.problems) leftOut.push(problem.message);
  // A file of variables is the person's, written for their own servers: a link's server never reads it.
  const { envFile, ...entry } = server.entry;
  if (envFile !== undefined) leftOut.push(`"envFile" not installed: a server from a link does not read a file of your variables (${JSON.stringify(envFile)})`);
  const used = JSON.stringify(entry);
  const declared = read.inputs.filter((input) => used.includes(`\${input:${input.id}}`));
  for (const input of read.inputs) if (!declared.includes(input)) leftOut.push(`input "${input.id}" not declared: the definition does not use it`);
  return { name, entry, inputs: declared, leftOut };
}

/** `name=N&config=JSON` already decoded: the JSON may hold `&` itself, so the name is the short part. */
function splitDecoded(query: string): { name?: string; config?: string } {
  const nameFirst = /^name=([^&]*)&config=(.*)$/s.exec(query);
  if (nameFirst !== null) return { name: nameFirst[1], config: nameFirst[2] };
  const configFirst = /^config=(.*)&name=([^&]*)$/s.exec(query);
  if (configFirst !== null) return { name: configFirst[2], config: configFirst[1] };
  const configOnly = /^config=(.*)$/s.exec(query);
  return configOnly !== null ? { config: configOnly[1] } : {};
}

function checkName(name: string): void {
  const problem = serverNameProblem(name);
  if (problem !== undefined) throw new InstallLinkError(problem);
}

/** Our URI handler's authority: `<publisher>.<name>` of package.json. */
export const LINK_AUTHORITY = 'mcp-switchboard.mcp-switchboard';
const LINK_FORMS: readonly RegExp[] = [
  new RegExp(`^vscode(-insiders)?://${LINK_AUTHORITY.replace(/\./g, '\\.')}/install\\?`, 'i'),
  /^vscode(-insiders)?:(\/\/)?mcp\/install\?/i,
  /^https:\/\/(insiders\.)?vscode\.dev\/redirect\/mcp\/install\?/i,
];

/** The (percent-encoded) query of a pasted install link, or an error naming the forms understood. */
export function installLinkQuery(link: string): string {
  const trimmed = link.trim();
  const form = LINK_FORMS.find((pattern) => pattern.test(trimmed));
  if (form === undefined) {
    throw new InstallLinkError(`not an install link: expected vscode://${LINK_AUTHORITY}/install?…, vscode:mcp/install?… or https://vscode.dev/redirect/mcp/install?…`);
  }
  return trimmed.replace(form, '');
}
