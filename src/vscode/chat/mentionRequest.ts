// `@server:uri` mentions in an @mcp request: each resource is read through the registry and attached as
// context (text inline, binary described, within the size limit) and as a chat reference; a template is
// filled with values asked for. A mention that names nothing readable stops the request with why.
import * as vscode from 'vscode';
import { parseMentions, replaceMentions, type ModelPart, type ResourceMention } from '../../core/chat';
import type { ArgumentAsker } from './argumentAsker';
import type { ChatServices, ReadMention } from './chatServices';

export type MentionedRequest =
  | { readonly kind: 'ready'; readonly parts: ModelPart[]; readonly read: readonly ReadMention[] }
  | { readonly kind: 'problem'; readonly message: string };

/** The person's message with its mentions attached, or the first problem. */
export async function attachMentions(services: ChatServices, prompt: string, ask: ArgumentAsker, signal?: AbortSignal): Promise<MentionedRequest> {
  const mentions = parseMentions(prompt);
  const read: ReadMention[] = [];
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
      labels.set(mention, `[resource ${got.attached.uri} of ${mention.server}, attached]`);
    } catch (error) {
      return { kind: 'problem', message: `@${mention.server}:${mention.uri} — ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const text = replaceMentions(prompt, mentions, (mention) => labels.get(mention) ?? `@${mention.server}:${mention.uri}`);
  // The resources first, then what the person asked about them.
  const parts: ModelPart[] = [...read.map((r): ModelPart => ({ kind: 'text', text: r.attached.text })), { kind: 'text', text }];
  return { kind: 'ready', parts, read };
}

/** Shows each attached resource as a reference of the response (it opens the resource read-only). */
export function referenceMentions(stream: vscode.ChatResponseStream, read: readonly ReadMention[]): void {
  for (const r of read) stream.reference(r.reference);
}
