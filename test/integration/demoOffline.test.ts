// The demo `npm start` opens runs without a network: every server of its user and project files and of
// its workspace skill is `node` running a script this repository holds (its packages or its own
// servers), never a download (`npx`), and the demo has one of each thing the README tells a person to
// try: a long-running task tool, an MCP App, a poisoned fetch-like tool and a skill with its own server.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseSkillLayer, skillLayerSpecs } from '../../src/core/skills';
import { outsideContentReason, scanOutputTexts } from '../../src/core/toolReview/outputScan';
import { skillFolders } from '../../src/node/skillFolders';
import { REPO_ROOT, requireBuiltCli, runCli } from './support';

const DEMO = path.join(REPO_ROOT, 'demo');
const WORKSPACE = path.join(DEMO, 'workspace');
const HOME = path.join(DEMO, 'home');
const REPO_VAR = '${env:SWITCHBOARD_REPO}';

interface Definition { command?: string; args?: string[] }

function servers(file: string): Record<string, Definition> {
  const config = parse(fs.readFileSync(file, 'utf8')) as { mcpServers?: Record<string, Definition> };
  return config.mcpServers ?? {};
}

/** Why `definition` would need more than this repository to start, or undefined when it would not. */
function offlineProblem(name: string, definition: Definition): string | undefined {
  if (definition.command !== 'node') return `${name}: runs ${String(definition.command)}, not node`;
  const script = definition.args?.[0] ?? '';
  if (!script.startsWith(`${REPO_VAR}/`)) return `${name}: its script ${script} is not in the repository`;
  const file = path.join(REPO_ROOT, script.slice(REPO_VAR.length + 1));
  return fs.existsSync(file) ? undefined : `${name}: ${file} does not exist`;
}

describe('the demo runs offline and has something for each thing the README says to try', () => {
  it('starts every server of its user and project files from this repository (no npx, no download)', () => {
    const all = { ...servers(path.join(HOME, '.mcp.json')), ...servers(path.join(WORKSPACE, '.mcp.json')) };
    assert.ok(Object.keys(all).length > 0);
    assert.deepEqual(Object.entries(all).map(([name, definition]) => offlineProblem(name, definition)).filter(Boolean), []);
  });

  it('has a long-running task tool, an MCP App and a poisoned fetch-like tool among its user servers', () => {
    const scripts = Object.values(servers(path.join(HOME, '.mcp.json'))).map((definition) => definition.args?.[0] ?? '');
    for (const want of ['test/fixtures/servers/task-tool.mjs', 'server-basic-vanillajs/dist/index.js', 'demo/servers/poisoned-fetch.mjs']) {
      assert.ok(scripts.some((script) => script.endsWith(want)), `no demo server runs ${want}`);
    }
  });

  it('has a workspace skill with a server of its own, which also runs from this repository', () => {
    const specs = skillLayerSpecs({ folders: [WORKSPACE], userHome: path.join(DEMO, 'no-home'), env: { SWITCHBOARD_REPO: REPO_ROOT }, skillFolders });
    assert.ok(specs.length > 0, 'the demo workspace has no skill');
    const skillServers = specs.flatMap((spec) => parseSkillLayer(spec, { kind: 'text', text: fs.readFileSync(spec.file, 'utf8') }).servers);
    assert.ok(skillServers.length > 0, 'no demo skill has a server');
    for (const { name, launch } of skillServers) {
      assert.equal(launch.type, 'stdio', `${name} is not a stdio server`);
      if (launch.type !== 'stdio') continue;
      assert.equal(launch.command, 'node', `${name} runs ${launch.command}`);
      const script = launch.args[0] ?? '';
      assert.ok(script.startsWith(REPO_ROOT + path.sep) && fs.existsSync(script), `${name}: its script ${script} is not in the repository`);
    }
  });

  it('its fetch tool returns a page labelled as the demo\'s poisoned example, which the output scan flags', async function () {
    this.timeout(20_000);
    const client = new Client({ name: 'demo-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(DEMO, 'servers', 'poisoned-fetch.mjs')], stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      const fetchTool = tools.find((tool) => tool.name === 'fetch');
      assert.ok(fetchTool, 'no fetch tool');
      assert.ok(outsideContentReason(fetchTool), 'the fetch tool\'s results would not be scanned');
      const result = await client.callTool({ name: 'fetch', arguments: { url: 'https://example.com' } });
      const texts = (result.content as { type: string; text?: string }[]).flatMap((block) => (block.text === undefined ? [] : [block.text]));
      assert.match(texts.join('\n'), /^\[DEMO POISONED PAGE/);
      assert.ok(scanOutputTexts(texts).length > 0, 'the output scan finds nothing in the poisoned page');
    } finally {
      await client.close();
    }
  });

  it('reads without a problem, as the CLI reads it', () => {
    requireBuiltCli();
    const result = runCli(['config', '--json', '--workspace', WORKSPACE], { HOME, SWITCHBOARD_REPO: REPO_ROOT });
    assert.equal(result.status, 0, result.stderr);
    const config = JSON.parse(result.stdout) as { servers: { name: string }[]; problems: unknown[] };
    assert.deepEqual(config.problems, []);
    assert.deepEqual(config.servers.map((server) => server.name).sort(), ['clock', 'everything', 'filesystem', 'memory', 'tasks', 'web']);
  });
});
