// Reading a registry response leniently: each server entry is checked against the fields we use (with
// zod), an entry that does not fit is left out and named, and the page's cursor is kept. A response that
// is not a server list at all is an error that says what came back.
import { z } from 'zod';
import type { RegistryPage, RegistryServer } from './types';

const input = z.object({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});
const withVariables = input.extend({ variables: z.record(z.string(), input).optional() });
const keyValue = withVariables.extend({ name: z.string().min(1) });
const argument = withVariables.extend({
  type: z.enum(['positional', 'named']),
  name: z.string().optional(),
  valueHint: z.string().optional(),
  isRepeated: z.boolean().optional(),
});
const transport = z.object({
  type: z.string(),
  url: z.string().optional(),
  headers: z.array(keyValue).optional(),
  variables: z.record(z.string(), input).optional(),
});
const pkg = z.object({
  registryType: z.string(),
  identifier: z.string().min(1),
  version: z.string().optional(),
  registryBaseUrl: z.string().optional(),
  runtimeHint: z.string().optional(),
  runtimeArguments: z.array(argument).optional(),
  packageArguments: z.array(argument).optional(),
  environmentVariables: z.array(keyValue).optional(),
  transport: transport.optional(),
});
const serverDetail = z.object({
  name: z.string().min(1),
  description: z.string().default(''),
  version: z.string().default(''),
  title: z.string().optional(),
  websiteUrl: z.string().optional(),
  repository: z.object({ url: z.string(), source: z.string().optional(), subfolder: z.string().optional() }).optional(),
  packages: z.array(pkg).default([]),
  remotes: z.array(transport).default([]),
});
const listEntry = z.object({
  server: z.unknown(),
  _meta: z.object({ 'io.modelcontextprotocol.registry/official': z.object({ status: z.string().optional() }).optional() }).optional(),
});

/** A server.json document (`ServerDetail`), or what is wrong with it. */
export function readServerDetail(value: unknown): RegistryServer | string {
  const parsed = serverDetail.safeParse(value);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.') || 'server'}: ${issue.message}`).join('; ');
  const { repository, title, websiteUrl, ...rest } = parsed.data;
  return {
    ...rest,
    ...(title !== undefined ? { title } : {}),
    ...(websiteUrl !== undefined ? { websiteUrl } : {}),
    ...(repository !== undefined ? { repository } : {}),
  } as RegistryServer;
}

/** A page of `GET /v0/servers`; throws when the body is not a server list. */
export function readRegistryPage(body: unknown): RegistryPage {
  if (typeof body !== 'object' || body === null || !Array.isArray((body as { servers?: unknown }).servers)) {
    throw new Error(`the registry's answer is not a server list (expected {"servers": [...]}, got ${describe(body)})`);
  }
  const page: RegistryPage = { servers: [], problems: [] };
  (body as { servers: unknown[] }).servers.forEach((item, index) => {
    const entry = listEntry.safeParse(item);
    const server = readServerDetail(entry.success ? entry.data.server : undefined);
    if (typeof server === 'string') {
      page.problems.push(`servers[${index}] left out: ${server}`);
      return;
    }
    const status = entry.success ? entry.data._meta?.['io.modelcontextprotocol.registry/official']?.status : undefined;
    page.servers.push(status !== undefined ? { ...server, status } : server);
  });
  const cursor = (body as { metadata?: { nextCursor?: unknown } }).metadata?.nextCursor;
  if (typeof cursor === 'string' && cursor !== '') page.nextCursor = cursor;
  return page;
}

/** The search URL of a registry: `{base}/v0/servers?search=…&limit=…&version=latest[&cursor=…]`. */
export function searchUrl(base: string, query: { search: string; limit: number; cursor?: string }): string {
  const url = new URL(`${base.replace(/\/+$/, '')}/v0/servers`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${base}: a registry URL starts with https:// (or http://)`);
  if (query.search.trim() !== '') url.searchParams.set('search', query.search.trim());
  url.searchParams.set('limit', String(query.limit));
  // One entry per server: its latest version.
  url.searchParams.set('version', 'latest');
  if (query.cursor !== undefined) url.searchParams.set('cursor', query.cursor);
  return url.toString();
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return `an object with ${Object.keys(value).slice(0, 5).join(', ') || 'no field'}`;
  return typeof value;
}
