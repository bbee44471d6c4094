// A read resource as context for a model: text inline (within a size limit), binary described rather
// than inlined. The model reads it inside a `<resource>` block that says where it came from.

/** One item of a `resources/read` result, as the server sent it. */
export type ResourceContentItem = { uri: string; mimeType?: string } & Record<string, unknown>;

/** A resource's contents ready to attach. */
export interface AttachedResource {
  readonly server: string;
  readonly uri: string;
  /** The text the model reads (every item, in order). */
  readonly text: string;
  /** Characters of text the server sent, before any cut. */
  readonly totalChars: number;
  /** Whether text was cut to the limit. */
  readonly cut: boolean;
  /** The binary items, described (never inlined). */
  readonly binaries: readonly { readonly uri: string; readonly mimeType: string; readonly bytes: number }[];
}

/** Turns the items of a read into context, text cut at `maxChars` characters in all. */
export function attachResource(server: string, uri: string, items: readonly ResourceContentItem[], maxChars: number): AttachedResource {
  const blocks: string[] = [];
  const binaries: { uri: string; mimeType: string; bytes: number }[] = [];
  let totalChars = 0;
  let budget = Math.max(0, maxChars);
  let cut = false;
  for (const item of items) {
    const mimeType = typeof item.mimeType === 'string' ? item.mimeType : undefined;
    if (typeof item.text === 'string') {
      totalChars += item.text.length;
      let body = item.text;
      if (body.length > budget) {
        body = `${body.slice(0, budget)}\n[cut: ${item.text.length.toLocaleString('en-US')} characters, the first ${budget.toLocaleString('en-US')} shown]`;
        cut = true;
      }
      budget = Math.max(0, budget - item.text.length);
      blocks.push(`<resource server="${attr(server)}" uri="${attr(item.uri)}"${mimeType ? ` mimeType="${attr(mimeType)}"` : ''}>\n${body}\n</resource>`);
    } else if (typeof item.blob === 'string') {
      const bytes = base64Bytes(item.blob);
      const type = mimeType ?? 'application/octet-stream';
      binaries.push({ uri: item.uri, mimeType: type, bytes });
      blocks.push(`<resource server="${attr(server)}" uri="${attr(item.uri)}" mimeType="${attr(type)}" binary="${bytes} bytes">[binary content, not shown]</resource>`);
    }
  }
  return { server, uri, text: blocks.join('\n'), totalChars, cut, binaries };
}

/**
 * What the model reads before a resource that changed since it was attached (its server said so):
 * `earlier` when it was attached by an earlier request of the conversation and this one did not
 * mention it, so it is attached again.
 */
export function changedResourceNote(server: string, uri: string, earlier: boolean): string {
  return earlier
    ? `[The resource ${uri} of ${server}, attached earlier in this conversation, has changed since; its current content follows.]`
    : `[The resource ${uri} of ${server} has changed since it was last attached; its current content follows.]`;
}

/** The size in bytes of base64 data. */
export function base64Bytes(base64: string): number {
  const clean = base64.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
