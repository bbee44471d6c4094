// Reads one SKILL.md: the YAML frontmatter (name, description, and an `mcpServers` map whose entries are
// written as in a `.mcp.json`) and the instructions after it. Each server entry goes through the same
// config parser as a `.mcp.json` entry, so a skill's server is validated, expanded and fingerprinted
// exactly like any other; a problem is reported at its place in SKILL.md. Never throws.
import { isMap, isScalar, parseDocument, type Document } from 'yaml';
import { parseLayer } from '../config/parse';
import { fileStartRange, LineIndex, problemAt } from '../config/positions';
import type { ConfigProblem, ConfigRead, Layer, LayerSpec, ServerEntry, SourceRange } from '../config/types';

/** A skill as its SKILL.md describes it. */
export interface SkillDocument {
  /** The frontmatter's `name`, else the skill's folder name. */
  name: string;
  description: string;
  /** The instructions: the text after the frontmatter. */
  body: string;
  file: string;
  /** The names its `mcpServers` map gives, in order (valid or not). */
  serverNames: string[];
}

/** What one SKILL.md yields: the skill (unless the file is unusable), its servers and the problems. */
export interface SkillFileRead {
  skill?: SkillDocument;
  servers: ServerEntry[];
  problems: ConfigProblem[];
}

/** A skill's name: what `/name` in `@mcp` matches (letters, digits, `-`, `_`, `.`). */
const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** The id a skill's server is known by: `<skill>.<server>`, so two skills may both name a server `github`. */
export function skillServerName(skill: string, server: string): string {
  return `${skill}.${server}`;
}

/**
 * Parses `text` as the SKILL.md at `spec.file`. `spec` is the layer the skill's servers belong to (its
 * scope, folder and variables); `folderName` is the skill's folder, its name when the frontmatter has none.
 */
export function parseSkillFile(spec: LayerSpec, text: string, folderName: string): SkillFileRead {
  const file = spec.file;
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const index = new LineIndex(file, source);
  const front = /^---[ \t]*\r?\n/.exec(source);
  if (!front) {
    const problem = problemAt(fileStartRange(file), 'warning', 'skill-no-frontmatter', 'This SKILL.md has no frontmatter. Start it with a "---" line, then "name:" and "description:" (and "mcpServers:" for the servers the skill needs), then another "---" line.');
    return { skill: { name: folderName, description: '', body: source, file, serverNames: [] }, servers: [], problems: [problem] };
  }
  const start = front[0].length;
  const close = /^---[ \t]*$/m;
  const rest = source.slice(start);
  const end = close.exec(rest);
  if (!end) {
    return { servers: [], problems: [problemAt(index.range(0, 3), 'error', 'skill-frontmatter-unclosed', 'The frontmatter that starts on line 1 is never closed: add a line with only "---" after it.')] };
  }
  const yamlText = rest.slice(0, end.index);
  const body = rest.slice(end.index + end[0].length).replace(/^\r?\n/, '');
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  const problems: ConfigProblem[] = [];
  const at = (offset: number, length: number): SourceRange => index.range(start + offset, Math.max(0, length));
  for (const error of doc.errors) {
    problems.push(problemAt(at(error.pos[0], error.pos[1] - error.pos[0]), 'error', 'skill-yaml', `The frontmatter is not valid YAML: ${firstLine(error.message)}.`));
  }
  if (doc.errors.length > 0) return { servers: [], problems };
  for (const warning of doc.warnings) {
    problems.push(problemAt(at(warning.pos[0], warning.pos[1] - warning.pos[0]), 'warning', 'skill-yaml', `${firstLine(warning.message)}.`));
  }
  const contents = doc.contents;
  if (!isMap(contents)) {
    problems.push(problemAt(at(0, yamlText.length), 'error', 'skill-frontmatter-type', 'The frontmatter must be a YAML map like "name: my-skill" on one line and "description: …" on the next.'));
    return { servers: [], problems };
  }
  const name = stringField(doc, 'name', problems, at, file) ?? folderName;
  if (!SKILL_NAME.test(name)) {
    problems.push(problemAt(rangeOfKey(doc, 'name', at) ?? fileStartRange(file), 'error', 'skill-name', `The skill name "${name}" may hold only letters, digits, "-", "_" and ".", starting with a letter or digit.`));
    return { servers: [], problems };
  }
  const description = stringField(doc, 'description', problems, at, file) ?? '';
  if (description === '') problems.push(problemAt(rangeOfKey(doc, 'name', at) ?? fileStartRange(file), 'warning', 'skill-description', 'The skill has no "description": models choose skills by it, so say in a sentence what the skill is for.'));
  const { servers, serverNames } = readServers(doc, spec, name, problems, at);
  return { skill: { name, description, body, file, serverNames }, servers, problems };
}

/**
 * The layer of one SKILL.md (spec.format `skill`): its servers, and its problems. A missing file brings
 * no servers; YAML that does not parse makes the layer unusable, so the servers it had keep running.
 */
export function parseSkillLayer(spec: LayerSpec, read: ConfigRead): Layer {
  if (read.kind !== 'text') return parseLayer({ ...spec, format: undefined }, read);
  try {
    const parsed = parseSkillFile({ ...spec, format: undefined }, read.text, skillFolderName(spec.file));
    const usable = parsed.skill !== undefined;
    return { spec, servers: parsed.servers, inputs: [], problems: parsed.problems, usable };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { spec, servers: [], inputs: [], usable: false, problems: [problemAt(fileStartRange(spec.file), 'error', 'internal', `Could not read this skill because of an internal error (${detail}). Please report it.`)] };
  }
}

/** The name of the folder a SKILL.md is in (`…/skills/<name>/SKILL.md`). */
export function skillFolderName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts.length >= 2 ? parts[parts.length - 2] : 'skill';
}

type At = (offset: number, length: number) => SourceRange;

function readServers(doc: Document, spec: LayerSpec, skill: string, problems: ConfigProblem[], at: At): { servers: ServerEntry[]; serverNames: string[] } {
  const node = doc.get('mcpServers', true);
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) return { servers: [], serverNames: [] };
  if (!isMap(node)) {
    problems.push(problemAt(rangeOfKey(doc, 'mcpServers', at) ?? fileStartRange(spec.file), 'error', 'skill-servers-type', '"mcpServers" must map server names to definitions as in a .mcp.json, e.g. "github:" and under it "command: npx" and "args: [-y, some-server]".'));
    return { servers: [], serverNames: [] };
  }
  const servers: ServerEntry[] = [];
  const serverNames: string[] = [];
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    serverNames.push(key);
    const keyRange = isScalar(pair.key) && pair.key.range ? at(pair.key.range[0], pair.key.range[1] - pair.key.range[0]) : fileStartRange(spec.file);
    const entry = (pair.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? null;
    const name = skillServerName(skill, key);
    // The config parser reads one server at a time, so whatever it reports belongs to this entry's key.
    const layer = parseLayer({ ...spec, inline: JSON.stringify({ mcpServers: { [name]: entry } }) }, { kind: 'missing' });
    for (const problem of layer.problems) {
      problems.push(problemAt(keyRange, problem.severity, problem.code, `Server "${key}" of skill "${skill}": ${problem.message}`));
    }
    for (const server of layer.servers) servers.push({ ...server, skill: { name: skill, server: key, file: spec.file }, source: keyRange });
  }
  return { servers, serverNames };
}

function stringField(doc: Document, key: string, problems: ConfigProblem[], at: At, file: string): string | undefined {
  const value: unknown = doc.get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim();
  problems.push(problemAt(rangeOfKey(doc, key, at) ?? fileStartRange(file), 'warning', 'skill-field-type', `"${key}" should be text; it was ignored.`));
  return undefined;
}

function rangeOfKey(doc: Document, key: string, at: At): SourceRange | undefined {
  if (!isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((item) => isScalar(item.key) && item.key.value === key);
  const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
  return range ? at(range[0], range[1] - range[0]) : undefined;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/[.:]\s*$/, '');
}

/** `/name rest` at the start of an @mcp request: a skill is used by its name as a slash command. */
export function parseSkillCommand(prompt: string): { name: string; rest: string } | undefined {
  const match = /^\s*\/([A-Za-z0-9][A-Za-z0-9_.-]*)(?=\s|$)/.exec(prompt);
  return match ? { name: match[1], rest: prompt.slice(match[0].length).trim() } : undefined;
}

/** The skill's instructions as the model reads them, with what is unavailable of its tools and why. */
export function skillInstructions(skill: SkillDocument, unavailable: readonly { server: string; reason: string }[]): string {
  const lines = [`<skill name="${skill.name}" file="${skill.file}">`, skill.description === '' ? '' : `Description: ${skill.description}\n`, skill.body.trimEnd(), '</skill>'];
  for (const { server, reason } of unavailable) {
    lines.push(`The tools of this skill's server "${server}" are unavailable (${reason}); do the task without them, and say what could not be done.`);
  }
  return lines.filter((line) => line !== '').join('\n');
}
