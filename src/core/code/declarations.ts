// A server's tools as TypeScript declarations, from their input and output schemas, for the model to
// read before it writes a script. json-schema-to-typescript-lite turns each schema into interfaces:
// the maintained fork of json-schema-to-typescript without its formatter (prettier) and file access,
// which would have added some 5 MB to the extension's bundle.
import { compile, type JSONSchema } from 'json-schema-to-typescript-lite';
import { inputSchemaOf } from '../chat/modelTools';
import type { CodeApiServer, CodeApiTool } from './codeApi';

/** What a tool without an output schema resolves to: MCP content blocks. */
const CONTENT_BLOCKS = `/** A content block of an MCP tool result. */
type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };`;

/** The declarations of one server's tools: a namespace of argument and result types per tool, and `tools.<server>`. */
export async function serverDeclarations(server: CodeApiServer): Promise<string> {
  const used = new Set<string>();
  const blocks: string[] = [];
  const members: string[] = [];
  let needsContent = false;
  for (const tool of server.tools) {
    const space = uniqueIdentifier(tool.key, used);
    const args = await typeOf(inputSchemaOf(tool.model.tool), 'Args');
    const output = tool.model.tool.outputSchema;
    const result = output === undefined ? undefined : await typeOf(output, 'Result');
    needsContent ||= result === undefined;
    blocks.push(`declare namespace ${space} {\n${indent(args)}${result === undefined ? '' : `\n${indent(result)}`}\n}`);
    members.push(`${docComment(tool)}  ${propertyKey(tool.key)}(args: ${space}.Args): Promise<${result === undefined ? 'ContentBlock[]' : `${space}.Result`}>;`);
  }
  const ids = server.servers.map((id) => `"${id}"`).join(', ');
  return [
    `// tools.${server.key}: the tools of MCP server ${ids}. A failed call throws an Error with the reason.`,
    ...(needsContent ? [CONTENT_BLOCKS] : []),
    ...blocks,
    `declare const tools: {\n  ${propertyKey(server.key)}: {\n${members.map((member) => indent(member)).join('\n')}\n  };\n};`,
  ].join('\n\n');
}

/** The TypeScript of one schema, its root named `name` (a schema's own root title would clash across tools). */
async function typeOf(schema: Record<string, unknown>, name: string): Promise<string> {
  const root: Record<string, unknown> = { ...schema };
  delete root.title;
  delete root.$id;
  try {
    const text = await compile(root as JSONSchema, name, {
      additionalProperties: false,
      unknownAny: true,
      strictIndexSignatures: true,
      // A tool's schema is the server's text: a $ref to a file or a URL is never followed.
      $refOptions: { resolve: { external: false } },
      declareExternallyReferenced: true,
    });
    return text.trim();
  } catch (error) {
    // A schema the generator cannot read still leaves the tool callable; say so where the type would be.
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return `/** The schema could not be turned into a type (${why.replace(/\*\//g, '* /')}). */\nexport type ${name} = Record<string, unknown>;`;
  }
}

function docComment(tool: CodeApiTool): string {
  const { description, title, annotations } = tool.model.tool;
  const lines = [title && title !== tool.model.tool.name ? title : undefined, description?.trim()]
    .filter((line): line is string => line !== undefined && line !== '')
    .flatMap((line) => line.split('\n'));
  const hints = annotations?.readOnlyHint === true ? ['Read-only.'] : annotations?.destructiveHint === true ? ['May destroy data.'] : [];
  const all = [...lines, ...hints].map((line) => line.replace(/\*\//g, '* /'));
  if (all.length === 0) return '';
  return `  /**\n${all.map((line) => `   * ${line}`).join('\n')}\n   */\n`;
}

/** A JavaScript identifier made of `key` (`[A-Za-z0-9_-]`), not yet in `used`. */
function uniqueIdentifier(key: string, used: Set<string>): string {
  const base = /^[0-9]/.test(key) ? `_${key.replace(/-/g, '_')}` : key.replace(/-/g, '_');
  let name = RESERVED.has(base) ? `${base}_` : base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  used.add(name);
  return name;
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : `'${key}'`;
}

function indent(text: string): string {
  return text.split('\n').map((line) => (line === '' ? line : `  ${line}`)).join('\n');
}

const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false',
  'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'typeof', 'var', 'void', 'while', 'with', 'tools', 'ContentBlock', 'any', 'boolean', 'number', 'string', 'symbol', 'unknown', 'never', 'object',
]);
