// Which tools have an MCP App (an HTML resource at a `ui://` address, MCP Apps extension), which tools
// an app may call, and the HTML a read of the resource holds. Servers name the resource in the tool's
// `_meta.ui.resourceUri` (older ones in `_meta["ui/resourceUri"]`); a result may name it as well.
import type { CallToolResult, ToolInfo } from '../lifecycle/types';

/** The MCP Apps extension's id, under which a client declares it shows apps. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an app's HTML (the Apps extension's profile of text/html). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** Where servers written before `_meta.ui` name the resource. */
export const LEGACY_APP_URI_KEY = 'ui/resourceUri';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `ui://` address, or undefined for anything else (an app is only ever read from its own server). */
function uiUri(value: unknown): string | undefined {
  return typeof value === 'string' && /^ui:\/\/[^\s]+$/.test(value) ? value : undefined;
}

/** The `ui://` resource a `_meta` object names, in the current form first, then the older key. */
function uriInMeta(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const ui = meta.ui;
  return uiUri(isRecord(ui) ? ui.resourceUri : undefined) ?? uiUri(meta[LEGACY_APP_URI_KEY]);
}

/** The `ui://` resource of a tool's app, from its definition; undefined when it has none. */
export function toolAppUri(tool: Pick<ToolInfo, '_meta'>): string | undefined {
  return uriInMeta(tool._meta);
}

/**
 * The `ui://` resource a tool result names: its `_meta`, or a resource it embeds or links to with the
 * app MIME type. Undefined when it names none.
 */
export function resultAppUri(result: CallToolResult): string | undefined {
  const named = uriInMeta(result._meta);
  if (named !== undefined) return named;
  for (const block of result.content) {
    const item = block.type === 'resource' ? block.resource : block.type === 'resource_link' ? block : undefined;
    if (isRecord(item) && isAppMimeType(item.mimeType)) {
      const uri = uiUri(item.uri);
      if (uri !== undefined) return uri;
    }
  }
  return undefined;
}

/** The app to show for a call of `tool` that answered `result`: the result's own, else the tool's. */
export function callAppUri(tool: Pick<ToolInfo, '_meta'>, result?: CallToolResult): string | undefined {
  return (result === undefined ? undefined : resultAppUri(result)) ?? toolAppUri(tool);
}

/**
 * Whether an app may call `tool` of its own server: the tool's `_meta.ui.visibility` lists `app`, or
 * says nothing (the default is both the model and the app). A visibility that is not a list of words
 * is not understood, and refused.
 */
export function appMayCall(tool: Pick<ToolInfo, '_meta'>): boolean {
  const ui = isRecord(tool._meta) ? tool._meta.ui : undefined;
  if (!isRecord(ui) || ui.visibility === undefined) return true;
  return Array.isArray(ui.visibility) && ui.visibility.includes('app');
}

/** Whether a MIME type is the app profile of text/html (parameters compared without case or spaces). */
export function isAppMimeType(value: unknown): boolean {
  return typeof value === 'string' && value.replace(/\s+/g, '').toLowerCase() === APP_MIME_TYPE;
}

/** An app's HTML as its server served it, with the `_meta.ui` it declared beside it. */
export interface AppDocument {
  readonly uri: string;
  readonly html: string;
  /** The content item's `_meta.ui` (its CSP and permissions), falling back to the listed resource's. */
  readonly declared: unknown;
}

/** What a resource read answers (the SDK's ReadResourceResult fits). */
export interface AppResourceRead {
  contents: ({ uri: string; mimeType?: string } & Record<string, unknown>)[];
}

/**
 * The app document in a read of `uri`: the content item at that address with the app MIME type, as
 * text or base64. Throws, saying what was found instead, when the read holds none.
 */
export function appDocument(uri: string, read: AppResourceRead, listedMeta?: unknown, decodeBase64: (b64: string) => string = atobUtf8): AppDocument {
  const item = read.contents.find((c) => c.uri === uri && isAppMimeType(c.mimeType));
  if (item === undefined) {
    const found = read.contents.map((c) => `${c.uri} (${c.mimeType ?? 'no MIME type'})`).join(', ') || 'nothing';
    throw new Error(`The server's ${uri} is not an app: expected ${APP_MIME_TYPE}, the read returned ${found}.`);
  }
  const html = typeof item.text === 'string' ? item.text : typeof item.blob === 'string' ? decodeBase64(item.blob) : undefined;
  if (html === undefined) throw new Error(`The server's ${uri} has neither text nor a blob.`);
  const own = isRecord(item._meta) ? item._meta.ui : undefined;
  const listed = isRecord(listedMeta) ? listedMeta.ui : undefined;
  return { uri, html, declared: own ?? listed };
}

function atobUtf8(b64: string): string {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
