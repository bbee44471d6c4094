// What the host accepts of a server's listing before anything walks it: a tool whose schema is
// nested deeper, or holds more text, than the checks can read is refused (with the reason, for the
// Servers view and the CLI) and the server's other tools stay; a description or title longer than
// the poisoning scan reads is cut to that length, so the model never gets text nobody scanned.
import { MAX_SCANNED_CHARS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_STRINGS, measureJson } from '../schema/jsonBounds';
import type { CatalogItemOf, CatalogKind, RefusedTool, ToolInfo } from './types';

/** The listing of one kind after the bounds: what is kept, the tools refused, and what to log. */
export interface BoundedListing<K extends CatalogKind> {
  items: CatalogItemOf[K][];
  refused: RefusedTool[];
  warnings: string[];
}

const FIELD_NAMES: Readonly<Record<string, string>> = { inputSchema: 'input schema', outputSchema: 'output schema' };

/** Applies the bounds to the items of one listing (tools are checked field by field; other kinds only for depth). */
export function boundListing<K extends CatalogKind>(kind: K, items: readonly CatalogItemOf[K][]): BoundedListing<K> {
  const result: BoundedListing<K> = { items: [], refused: [], warnings: [] };
  for (const item of items) {
    if (kind !== 'tools') {
      if (measureJson(item, MAX_SCHEMA_DEPTH + 1, Number.POSITIVE_INFINITY).depth > MAX_SCHEMA_DEPTH + 1) {
        result.warnings.push(`ignored an item of the ${kind} list nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
      } else result.items.push(item);
      continue;
    }
    const tool = item as ToolInfo;
    const reason = refusalOf(tool);
    if (reason !== undefined) {
      const name = typeof tool.name === 'string' ? tool.name : String(tool.name);
      result.refused.push({ name, reason });
      result.warnings.push(`refused the tool ${JSON.stringify(name)}: ${reason}`);
      continue;
    }
    const { tool: kept, cut } = cutTexts(tool);
    for (const field of cut) result.warnings.push(`the ${field} of the tool ${JSON.stringify(tool.name)} is longer than ${MAX_SCANNED_CHARS} characters: only that much is kept (what the poisoning scan reads)`);
    result.items.push(kept as CatalogItemOf[K]);
  }
  return result;
}

/** Why a tool is refused, or undefined when every part of it is within the bounds. */
export function refusalOf(tool: ToolInfo): string | undefined {
  if (typeof tool.name !== 'string') return 'its name is not a text';
  for (const [key, value] of Object.entries(tool)) {
    if (typeof value !== 'object' || value === null) continue;
    const field = FIELD_NAMES[key] ?? `"${key}" field`;
    const scanned = key === 'inputSchema' || key === 'annotations';
    const measure = measureJson(value, MAX_SCHEMA_DEPTH, scanned ? MAX_SCHEMA_STRINGS : Number.POSITIVE_INFINITY);
    if (measure.depth > MAX_SCHEMA_DEPTH) return `its ${field} is nested more than ${MAX_SCHEMA_DEPTH} levels deep`;
    if (!scanned) continue;
    if (measure.strings > MAX_SCHEMA_STRINGS) return `its ${field} holds more than ${MAX_SCHEMA_STRINGS} names and texts, more than the poisoning scan reads`;
    if (measure.longestString > MAX_SCANNED_CHARS) return `its ${field} holds a text longer than ${MAX_SCANNED_CHARS} characters, more than the poisoning scan reads`;
  }
  return undefined;
}

/** The tool with its description and title cut to what the scan reads (at a whole character). */
function cutTexts(tool: ToolInfo): { tool: ToolInfo; cut: string[] } {
  const cut: string[] = [];
  let kept = tool;
  for (const field of ['description', 'title'] as const) {
    const text = kept[field];
    if (typeof text === 'string' && text.length > MAX_SCANNED_CHARS) {
      kept = { ...kept, [field]: cutAt(text, MAX_SCANNED_CHARS) };
      cut.push(field);
    }
  }
  return { tool: kept, cut };
}

/** The first `max` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
