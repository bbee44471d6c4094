// Lists the tools of real MCP servers from npm and writes one JSON snapshot per server to
// bench/search/catalogs/, so that `npm run bench:search` ranks real catalogs without the network.
//
//   node bench/search/list-catalogs.mjs [--only ID,ID] [--timeout-ms 240000]
//
// Each server is started headlessly over stdio with the MCP SDK's client, the way a host would
// start it: `npx -y <package>@<pinned version>` in a fresh temp folder (so no project's own
// node_modules or package.json is in the way), with dummy tokens in its environment — listing tools
// needs no real account. The three servers that are devDependencies of the project run from
// node_modules at their installed version. Nothing here is a dependency of the project: the other
// packages are fetched into the npm cache by npx when the script runs, and only their listings are
// committed. A server that fails to start or list is reported and its old snapshot kept.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseArgv } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const outDir = path.join(here, 'catalogs');
const require = createRequire(path.join(repoRoot, 'package.json'));

/** A kubeconfig naming a cluster that is never contacted: the Kubernetes server reads one at startup. */
const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: dummy
  cluster:
    server: https://127.0.0.1:1
contexts:
- name: dummy
  context:
    cluster: dummy
    user: dummy
current-context: dummy
users:
- name: dummy
  user:
    token: dummy
`;

/**
 * The servers. `id` is the server name the tools are catalogued under (as a person would name the
 * entry in .mcp.json); `args`/`env` get `{dir}` replaced by the temp folder, where `files` are written
 * first. `local` servers are the project's devDependencies, run from node_modules.
 */
const SERVERS = [
  { id: 'everything', package: '@modelcontextprotocol/server-everything', local: true, args: ['stdio'] },
  { id: 'filesystem', package: '@modelcontextprotocol/server-filesystem', local: true, args: ['{dir}'] },
  { id: 'memory', package: '@modelcontextprotocol/server-memory', local: true, env: { MEMORY_FILE_PATH: '{dir}/memory.jsonl' } },
  { id: 'github', package: '@modelcontextprotocol/server-github', version: '2025.4.8', env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_dummy' } },
  { id: 'gitlab', package: '@modelcontextprotocol/server-gitlab', version: '2025.4.25', env: { GITLAB_PERSONAL_ACCESS_TOKEN: 'glpat-dummy', GITLAB_API_URL: 'https://gitlab.example.invalid/api/v4' } },
  { id: 'slack', package: '@modelcontextprotocol/server-slack', version: '2025.4.25', env: { SLACK_BOT_TOKEN: 'xoxb-dummy', SLACK_TEAM_ID: 'T00000000' } },
  { id: 'brave-search', package: '@brave/brave-search-mcp-server', version: '2.1.4', env: { BRAVE_API_KEY: 'dummy' } },
  { id: 'google-maps', package: '@modelcontextprotocol/server-google-maps', version: '0.6.2', env: { GOOGLE_MAPS_API_KEY: 'dummy' } },
  { id: 'postgres', package: '@modelcontextprotocol/server-postgres', version: '0.6.2', args: ['postgresql://user:password@127.0.0.1:1/dummy'] },
  { id: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking', version: '2026.8.31' },
  { id: 'playwright', package: '@playwright/mcp', version: '0.0.83', args: ['--headless', '--isolated'] },
  { id: 'notion', package: '@notionhq/notion-mcp-server', version: '2.5.2', env: { NOTION_TOKEN: 'ntn_dummy' } },
  { id: 'puppeteer', package: '@modelcontextprotocol/server-puppeteer', version: '2025.5.12', env: { PUPPETEER_SKIP_DOWNLOAD: '1', PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: '1' } },
  { id: 'context7', package: '@upstash/context7-mcp', version: '4.1.1' },
  { id: 'firecrawl', package: 'firecrawl-mcp', version: '3.26.0', env: { FIRECRAWL_API_KEY: 'fc-dummy' } },
  { id: 'kubernetes', package: 'mcp-server-kubernetes', version: '4.1.7', env: { KUBECONFIG: '{dir}/kubeconfig' }, files: { kubeconfig: KUBECONFIG } },
];

const LOOSE_TOOLS_PAGE = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })),
  nextCursor: z.string().optional(),
});

function parseArgs(argv) {
  const { values } = parseArgv({ args: argv, options: { only: { type: 'string' }, 'timeout-ms': { type: 'string' } } });
  return {
    only: values.only !== undefined ? new Set(values.only.split(',')) : undefined,
    timeoutMs: values['timeout-ms'] !== undefined ? Number(values['timeout-ms']) : 240_000,
  };
}

/** The command that starts a server, and the version it runs. */
function launchOf(server, dir) {
  const fill = (value) => value.replaceAll('{dir}', dir);
  const args = (server.args ?? []).map(fill);
  const env = Object.fromEntries(Object.entries(server.env ?? {}).map(([key, value]) => [key, fill(value)]));
  if (server.local) {
    const manifestPath = require.resolve(`${server.package}/package.json`);
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
    return { command: process.execPath, args: [path.join(path.dirname(manifestPath), bin), ...args], env, version: manifest.version };
  }
  return { command: 'npx', args: ['-y', `${server.package}@${server.version}`, ...args], env, version: server.version };
}

async function listServer(server, timeoutMs) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcp-catalog-${server.id}-`));
  for (const [name, text] of Object.entries(server.files ?? {})) fs.writeFileSync(path.join(dir, name), text);
  const launch = launchOf(server, dir);
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: dir,
    env: { ...process.env, ...launch.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000); });
  const client = new Client({ name: 'switchboard-catalog-snapshot', version: '1.0.0' }, { capabilities: {} });
  const timer = setTimeout(() => { void transport.close(); }, timeoutMs);
  try {
    await client.connect(transport);
    const tools = [];
    let cursor;
    do {
      // Validated loosely: a server whose schemas stray from the spec (GitLab's lack `"type": "object"`)
      // is still a catalog people use, and its tools are recorded as the server sent them.
      const page = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LOOSE_TOOLS_PAGE);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return {
      server: server.id,
      package: `${server.package}@${launch.version}`,
      serverInfo: client.getServerVersion() ?? null,
      ...(client.getInstructions() ? { instructions: client.getInstructions() } : {}),
      tools: tools.map((tool) => ({
        name: tool.name,
        ...(tool.title !== undefined ? { title: tool.title } : {}),
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema,
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      })),
    };
  } catch (error) {
    throw new Error(`${error.message}\n--- stderr (tail) ---\n${stderr}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const options = parseArgs(process.argv.slice(2));
fs.mkdirSync(outDir, { recursive: true });
let failed = 0;
for (const server of SERVERS) {
  if (options.only && !options.only.has(server.id)) continue;
  const started = Date.now();
  try {
    const snapshot = await listServer(server, options.timeoutMs);
    fs.writeFileSync(path.join(outDir, `${server.id}.json`), `${JSON.stringify(snapshot, null, 2)}\n`);
    console.log(`${server.id}: ${snapshot.tools.length} tools from ${snapshot.package} (${Date.now() - started} ms)`);
  } catch (error) {
    failed++;
    console.error(`${server.id}: FAILED (${Date.now() - started} ms): ${error.message}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
