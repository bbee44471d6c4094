// `switchboard registry search QUERY [--registry URL] [--json]`: the servers of an MCP registry whose
// names contain QUERY, as the gallery shows them — description, version, publisher, transports,
// repository, and each way to install it as the whole entry it would write, with what it needs.
import { DEFAULT_REGISTRY_URL, galleryItem, SEARCH_LIMIT, type GalleryItem } from '../core/gallery';
import { RegistryError, searchRegistry } from '../node/registryClient';
import { PROGRAM, UsageError, type Command, type Io } from './command';

const HELP = `Usage: ${PROGRAM} registry search [QUERY] [--registry URL] [--limit N] [--cursor C] [--json]

Searches an MCP registry (the API of the official registry,
GET URL/v0/servers?search=QUERY) for servers whose names contain QUERY, and prints
each one as the Browse Servers gallery shows it: description, version, publisher,
transports, repository, and every way to install it as the whole entry it would
write (command line or URL, env and header names) with what it needs. It writes
nothing; values a person gives are \${input:...} references asked on first start.

Options:
  --registry URL   The registry (default ${DEFAULT_REGISTRY_URL}; the
                   extension's setting is switchboard.registry.url).
  --limit N        Servers per page (default ${SEARCH_LIMIT}, at most 100).
  --cursor C       The page after the one that printed this cursor.
  --json           Print JSON: { "servers": [ SERVER ... ], "nextCursor"?, "problems": [ ... ] }.
  -h, --help       Show this help.

Exit status: 0 when the registry answered (even with no server); 1 when it could
not be reached or did not answer a server list; 2 for a usage error.
`;

export const registryCommand: Command = {
  name: 'registry',
  summary: 'Search an MCP registry for servers to install',
  help: HELP,
  flags: { registry: { kind: 'string', meta: 'URL' }, limit: { kind: 'string', meta: 'N' }, cursor: { kind: 'string', meta: 'C' }, json: { kind: 'boolean' } },
  positionals: { names: ['search', 'QUERY'], required: 1 },
  async run(args, io) {
    const [subcommand, query = ''] = args.positionals;
    if (subcommand !== 'search') throw new UsageError(`unknown subcommand '${subcommand}' (expected: search)`, 'registry');
    const limitText = args.string('limit');
    const limit = limitText === undefined ? SEARCH_LIMIT : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError(`--limit ${limitText}: expected a whole number from 1 to 100`, 'registry');
    const registry = args.string('registry') ?? DEFAULT_REGISTRY_URL;
    let page;
    try {
      page = await searchRegistry(registry, { search: query, limit, ...(args.string('cursor') !== undefined ? { cursor: args.string('cursor')! } : {}) });
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      io.err(`${PROGRAM}: ${error.message}\n`);
      return 1;
    }
    const servers = page.servers.map(galleryItem);
    if (args.has('json')) {
      io.out(`${JSON.stringify({ servers, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}), problems: page.problems }, null, 2)}\n`);
      return 0;
    }
    printTable(io, registry, query, servers, page.nextCursor, page.problems);
    return 0;
  },
};

function printTable(io: Io, registry: string, query: string, servers: GalleryItem[], nextCursor: string | undefined, problems: string[]): void {
  if (servers.length === 0) io.out(`No server of ${registry} has "${query}" in its name.\n`);
  for (const server of servers) {
    io.out(`${server.registryName} ${server.version}${server.status !== undefined && server.status !== 'active' ? ` (${server.status})` : ''}\n`);
    io.out(`  ${server.description}\n`);
    io.out(`  publisher: ${server.publisher || '(none)'} · transport: ${server.transports.join(', ') || '(none)'}${server.repository ? ` · repository: ${server.repository}` : ''}\n`);
    for (const option of server.options) {
      if (option.entry === undefined) {
        io.out(`  - ${option.label}: cannot be installed: ${option.reason}\n`);
        continue;
      }
      const launch = option.entry.command !== undefined ? [option.entry.command, ...(option.entry.args ?? [])].join(' ') : option.entry.url;
      io.out(`  - ${option.label}\n      "${server.name}": ${option.entry.type} ${launch}\n`);
      if (option.entry.env) io.out(`      env: ${Object.keys(option.entry.env).join(', ')}\n`);
      if (option.entry.headers) io.out(`      headers: ${Object.keys(option.entry.headers).join(', ')}\n`);
      if (option.needs.length > 0) io.out(`      needs: ${option.needs.join('; ')}\n`);
      if (option.leftOut.length > 0) io.out(`      optional, left out: ${option.leftOut.join('; ')}\n`);
    }
  }
  for (const problem of problems) io.out(`note: ${problem}\n`);
  if (nextCursor !== undefined) io.out(`More: ${PROGRAM} registry search ${query === '' ? "''" : JSON.stringify(query)} --cursor ${nextCursor}\n`);
}
