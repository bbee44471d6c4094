// The port through which the core reads shell syntax (approvals' command signatures and trust's danger
// flags alike). The core never parses bash by hand:
// a maintained grammar (tree-sitter-bash, loaded in src/node) parses, and its tree is copied into these
// plain nodes, so the rules here are pure data walking and the parser's memory is freed at once.

/** One node of a bash syntax tree: its grammar type, its source text and its children. */
export interface ShellNode {
  /** The grammar's name for the node: `command`, `word`, `pipeline`, or an operator such as `&&`. */
  type: string;
  /** Whether the grammar names it (`command`) or it is punctuation (`|`, `"`, `$(`). */
  named: boolean;
  /** The field it fills in its parent (`name`, `argument`, `redirect`, `destination`…), if any. */
  field?: string;
  /** Its exact source text. */
  text: string;
  children: ShellNode[];
}

/**
 * What a parse gives: a tree, or the reason the text is not valid shell syntax together with the tree the
 * grammar recovered (danger flags still look for programs in it; approvals refuse).
 */
export type ShellParse = { ok: true; root: ShellNode } | { ok: false; reason: string; root?: ShellNode };

/** Parses bash synchronously; implemented over tree-sitter-bash by src/node/bashParser.ts. */
export interface ShellParser {
  parse(text: string): ShellParse;
}

/** The named children of `node`. */
export function namedChildren(node: ShellNode): ShellNode[] {
  return node.children.filter((child) => child.named);
}

/** The children of `node` that fill `field`. */
export function fieldChildren(node: ShellNode, field: string): ShellNode[] {
  return node.children.filter((child) => child.field === field);
}
