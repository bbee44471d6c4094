// `@server:uri` mentions in an @mcp request: each resource is read through the registry and attached as
// context (text inline, binary described, within the size limit) and as a chat reference; a template is
// filled with values asked for. A mention that names nothing readable stops the request with why.
// Attached resources are watched: one that changed since it was last attached is marked so for the
// model, and one an earlier request of the conversation attached is attached again, marked, when it
// changed since.
import * as vscode from 'vscode';
import { changedResourceNote, parseMentions, replaceMentions, type ModelPart, type ResourceMention } from '../../core/chat';
import type { ArgumentAsker } from './argumentAsker';
import type { ChatServices, ReadMention } from './chatServices';

export type MentionedRequest =
  | { readonly kind: 'ready'; readonly parts: ModelPart[]; readonly read: readonly ReadMention[]; readonly changed: readonly string[] }
  | { readonly kind: 'problem'; readonly message: string };

/**
 * The person's message with its mentions attached, or the first problem. `earlier` are the mentions of
 * the conversation's earlier requests.
 */
export async function attachMentions(
  services: ChatServices, prompt: string, ask: ArgumentAsker, signal?: AbortSignal, earlier: readonly ResourceMention[] = [],
): Promise<MentionedRequest> {
  const mentions = parseMentions(prompt);
  const read: ReadMention[] = [];
  const texts: string[] = [];
  const changed: string[] = [];
  const labels = new Map<ResourceMention, string>();
  for (const mention of mentions) {
    try {
      const got = await services.readMention(mention.server, mention.uri, (target) => ask(
        `${target.server} › ${target.template.title ?? target.template.name}`,
        target.variables.map((name) => ({
          name,
          required: true,
          complete: (value, filled) => services.complete(target.server, { ref: { type: 'ref/resource', uri: target.template.uriTemplate }, argument: { name, value }, context: { arguments: { ...filled } } }),
        })),
        {},
      ), signal);
      read.push(got);
      const isChanged = services.noteAttached(mention.server, got.uri);
      if (isChanged) changed.push(got.uri);
      texts.push(isChanged ? `${changedResourceNote(mention.server, got.uri, false)}\n${got.attached.text}` : got.attached.text);
      labels.set(mention, `[resource ${got.attached.uri} of ${mention.server}, attached${isChanged ? '; it changed since it was last attached' : ''}]`);
    } catch (error) {
      return { kind: 'problem', message: `@${mention.server}:${mention.uri} — ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const again = await attachChangedEarlier(services, earlier, read, signal);
  read.push(...again.map((a) => a.read));
  changed.push(...again.map((a) => a.read.uri));
  const text = replaceMentions(prompt, mentions, (mention) => labels.get(mention) ?? `@${mention.server}:${mention.uri}`);
  // The resources first (those attached again after this request's own), then what the person asked about them.
  const parts: ModelPart[] = [...texts, ...again.map((a) => a.text)].map((t): ModelPart => ({ kind: 'text', text: t }));
  parts.push({ kind: 'text', text });
  return { kind: 'ready', parts, read, changed };
}

/**
 * The resources earlier requests attached that changed since and that this request did not attach,
 * read again. One that cannot be read now (its server stopped, a template's values are not known) is
 * left out: the earlier answer stands, and the person can mention it again.
 */
async function attachChangedEarlier(
  services: ChatServices, earlier: readonly ResourceMention[], attached: readonly ReadMention[], signal?: AbortSignal,
): Promise<{ read: ReadMention; text: string }[]> {
  const seen = new Set(attached.map((r) => `${r.attached.server}\n${r.uri}`));
  const result: { read: ReadMention; text: string }[] = [];
  for (const { server, uri } of earlier) {
    const key = `${server}\n${uri}`;
    if (seen.has(key) || !services.changedSinceAttached(server, uri)) continue;
    seen.add(key);
    try {
      const got = await services.readMention(server, uri, async () => undefined, signal);
      services.noteAttached(server, got.uri);
      result.push({ read: got, text: `${changedResourceNote(server, got.uri, true)}\n${got.attached.text}` });
    } catch {
      // Not readable now: see above.
    }
  }
  return result;
}

/** Shows each attached resource as a reference of the response (it opens the resource read-only). */
export function referenceMentions(stream: vscode.ChatResponseStream, read: readonly ReadMention[]): void {
  for (const r of read) stream.reference(r.reference);
}
