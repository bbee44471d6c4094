// The bash parser behind the command signatures: tree-sitter's bash grammar, compiled to WebAssembly.
// Loading is asynchronous and done once per process (about 50 ms); every parse after it is synchronous.
// The two .wasm files ship next to the bundles in dist/ (esbuild.mjs copies them); from sources and
// tests they are found in node_modules.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, Parser, type Node } from 'web-tree-sitter';
import type { ShellNode, ShellParse, ShellParser } from '../core/shell/syntax';

/** The WebAssembly files the parser needs, by the package that ships each. */
export const BASH_PARSER_FILES = [
  { file: 'web-tree-sitter.wasm', pkg: 'web-tree-sitter' },
  { file: 'tree-sitter-bash.wasm', pkg: 'tree-sitter-bash' },
] as const;

let loading: Promise<ShellParser> | undefined;

/** The bash parser, loaded on first use and shared by every later caller. */
export function loadBashParser(): Promise<ShellParser> {
  loading ??= load(__dirname).catch((error: unknown) => {
    loading = undefined; // a later call may try again (a file restored, say)
    throw error;
  });
  return loading;
}

async function load(from: string): Promise<ShellParser> {
  const [runtime, grammar] = BASH_PARSER_FILES.map(({ file, pkg }) => fs.readFileSync(locate(from, file, pkg)));
  await Parser.init({ wasmBinary: runtime });
  const language = await Language.load(grammar);
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(text: string): ShellParse {
      const tree = parser.parse(text);
      if (tree === null) return { ok: false, reason: 'the parser gave up on it' };
      try {
        const problem = firstProblem(tree.rootNode, text);
        const root = copy(tree.rootNode);
        return problem === undefined ? { ok: true, root } : { ok: false, reason: problem, root };
      } finally {
        tree.delete(); // the tree lives in WebAssembly memory, which no garbage collector frees
      }
    },
  };
}

/** `file` next to the running code (dist/), or in the package's folder under a node_modules above it. */
function locate(from: string, file: string, pkg: string): string {
  const candidates = [path.join(from, file)];
  for (let dir = from; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'node_modules', pkg, file));
    if (path.dirname(dir) === dir) break;
  }
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (found === undefined) throw new Error(`cannot find ${file} of the bash parser (looked in ${candidates.slice(0, 3).join(', ')}…)`);
  return found;
}

/** Where the grammar could not read the text, said for a person; undefined when it read all of it. */
function firstProblem(root: Node, text: string): string | undefined {
  if (!root.hasError) return undefined;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isMissing) return `\`${node.type}\` is missing at column ${node.startIndex + 1}`;
    if (node.type === 'ERROR') {
      const near = text.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40));
      return `it is not valid shell syntax near \`${near}\` (column ${node.startIndex + 1})`;
    }
    stack.push(...node.children.filter((child): child is Node => child !== null && child.hasError).reverse());
  }
  return 'it is not valid shell syntax';
}

/** A plain copy of the tree, built with an explicit stack so a deeply nested command cannot overflow the call stack. */
function copy(root: Node): ShellNode {
  const top: ShellNode = { type: root.type, named: root.isNamed, text: root.text, children: [] };
  const stack: Array<[Node, ShellNode]> = [[root, top]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    source.children.forEach((child, index) => {
      if (child === null) return;
      const field = source.fieldNameForChild(index);
      const node: ShellNode = { type: child.type, named: child.isNamed, text: child.text, children: [] };
      if (field !== null) node.field = field;
      target.children.push(node);
      stack.push([child, node]);
    });
  }
  return top;
}
