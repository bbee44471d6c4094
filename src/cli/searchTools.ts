// `switchboard search-tools --catalog FILE --queries FILE --k 5`: the tool search the chat uses, over a
// catalog file, for a file of queries — one JSON line per query, for evaluating the ranking.
import * as path from 'node:path';
import { ToolIndex, type SearchableTool } from '../core/search/toolSearch';
import { PROGRAM, readFlagFile, readFlagJson, UsageError, type Command } from './command';

const NAME = 'search-tools';

const HELP = `Usage: ${PROGRAM} ${NAME} --catalog FILE --queries FILE [--k N]

Ranks the catalog's tools for each query with the search the chat uses (BM25 over name
parts, description, parameter names and descriptions, server name and instructions, with
stemming and a small synonym table that includes Chinese) and prints one JSON line per
query, in the queries' order:
  { "id", "results": [ { "server", "tool" } … ], "ms" }
"ms" is the time the query took, in milliseconds.

Options:
  --catalog FILE   a JSON array of { "server", "name", "description", "inputSchema", "annotations" }
  --queries FILE   one JSON object per line: { "id", "query" } (blank lines are skipped)
  --k N            how many results per query (default 5)

Exit status: 0; 2 for a usage error (a file that cannot be read or parsed, with the line).
`;

export const searchToolsCommand: Command = {
  name: NAME,
  summary: 'Rank a catalog\'s tools for each query (the chat\'s tool search)',
  help: HELP,
  flags: {
    catalog: { kind: 'string', meta: 'FILE' },
    queries: { kind: 'string', meta: 'FILE' },
    k: { kind: 'string', meta: 'N' },
  },
  async run(args, io) {
    const catalogFile = args.string('catalog');
    const queriesFile = args.string('queries');
    if (catalogFile === undefined) throw new UsageError('missing --catalog', NAME);
    if (queriesFile === undefined) throw new UsageError('missing --queries', NAME);
    const kText = args.string('k') ?? '5';
    const k = Number(kText);
    if (!/^\d+$/.test(kText) || k < 1) throw new UsageError(`--k ${kText}: expected a whole number of at least 1`, NAME);
    const catalog = readCatalog(path.resolve(io.cwd, catalogFile));
    const queries = readQueries(path.resolve(io.cwd, queriesFile));
    const index = new ToolIndex(catalog);
    for (const { id, query } of queries) {
      const started = performance.now();
      const hits = index.query(query, k);
      const ms = Math.round((performance.now() - started) * 1000) / 1000;
      io.out(`${JSON.stringify({ id, results: hits.map((hit) => ({ server: hit.server, tool: hit.tool })), ms })}\n`);
    }
    return 0;
  },
};

function readCatalog(file: string): SearchableTool[] {
  const value = readFlagJson(file, 'catalog', NAME);
  if (!Array.isArray(value)) throw new UsageError(`--catalog ${file}: expected a JSON array of tools`, NAME);
  return value.map((item, index) => {
    const tool = item as Record<string, unknown> | null;
    if (typeof tool !== 'object' || tool === null || typeof tool.server !== 'string' || typeof tool.name !== 'string') {
      throw new UsageError(`--catalog ${file}: entry ${index} needs string "server" and "name"`, NAME);
    }
    return {
      server: tool.server,
      name: tool.name,
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      ...(typeof tool.inputSchema === 'object' && tool.inputSchema !== null ? { inputSchema: tool.inputSchema as Record<string, unknown> } : {}),
      ...(typeof tool.serverInstructions === 'string' ? { serverInstructions: tool.serverInstructions } : {}),
    };
  });
}

function readQueries(file: string): { id: unknown; query: string }[] {
  const queries: { id: unknown; query: string }[] = [];
  readFlagFile(file, 'queries', NAME).split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: { id?: unknown; query?: unknown };
    try {
      value = JSON.parse(line) as { id?: unknown; query?: unknown };
    } catch (error) {
      throw new UsageError(`--queries ${file}:${index + 1}: not JSON (${(error as Error).message})`, NAME);
    }
    if (typeof value !== 'object' || value === null || typeof value.query !== 'string' || value.id === undefined) {
      throw new UsageError(`--queries ${file}:${index + 1}: expected { "id", "query" }`, NAME);
    }
    queries.push({ id: value.id, query: value.query });
  });
  return queries;
}
