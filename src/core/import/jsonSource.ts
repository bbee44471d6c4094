// Reading a JSON (or JSON with comments) host file leniently: a syntax error is a problem at its line
// and column, and a section of the wrong shape is a problem at that section, never an exception.
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { LineIndex } from '../config/positions';
import { emptyRead, readServerMap } from './serverMap';
import type { StandardDialect } from './standardEntry';
import type { HostRead, HostReader, ImportProblem } from './types';

/** A parsed document with what is needed to place problems. */
export interface JsonSource {
  file: string;
  tree: Node;
  index: LineIndex;
}

/** Parses `text`; a syntax error or a non-object document gives problems instead. */
export function parseJsonSource(file: string, rawText: string): JsonSource | ImportProblem[] {
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  const index = new LineIndex(file, text);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    return errors.map((error) => problemAt(index, error.offset, `${syntaxName(printParseErrorCode(error.error))}: the file is not valid JSON here`));
  }
  if (tree === undefined) return [problemAt(index, 0, 'The file is empty')];
  if (tree.type !== 'object') return [problemAt(index, tree.offset, 'The file must contain a JSON object')];
  return { file, tree, index };
}

/** The plain value at `path`, when present. */
export function valueAt(source: JsonSource, path: (string | number)[]): { node: Node; value: unknown } | undefined {
  const node = findNodeAtLocation(source.tree, path);
  return node === undefined ? undefined : { node, value: getNodeValue(node) as unknown };
}

/** The object at `path` as a map, or a problem when something else is there. Absent: an empty map. */
export function objectAt(source: JsonSource, path: string[], problems: ImportProblem[]): Record<string, unknown> | undefined {
  const found = valueAt(source, path);
  if (found === undefined) return undefined;
  if (found.node.type !== 'object') {
    problems.push(problemAt(source.index, found.node.offset, `"${path.join('.')}" must be an object that maps server names to definitions`));
    return undefined;
  }
  return found.value as Record<string, unknown>;
}

/** A problem at an offset of the text. */
export function problemAt(index: LineIndex, offset: number, message: string): ImportProblem {
  const { line, column } = index.position(offset);
  return { file: index.file, line, column, message };
}

/** A read that found nothing usable, only problems. */
export function unusable(problems: ImportProblem[]): HostRead {
  return { servers: [], inputs: [], skipped: [], problems, usable: false };
}

function syntaxName(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().replace(/^./, (c) => c.toUpperCase());
}

/** The reader of a host whose file is a JSON object with a top-level `mcpServers` map, in `dialect`. */
export function mcpServersReader(dialect: StandardDialect): HostReader {
  return (file, text) => {
    const source = parseJsonSource(file, text);
    if (Array.isArray(source)) return unusable(source);
    const read = emptyRead();
    const servers = objectAt(source, ['mcpServers'], read.problems);
    if (servers !== undefined) readServerMap(read, servers, dialect, file);
    return read;
  };
}
