// The administrator's policy from the command line: `config --json` shows its effect per server, a
// denied server is never spawned by `status` or `call`, and a policy file that cannot be understood
// blocks every server with a problem at its position.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { requireBuiltCli, runCli, TempDirs, write, writeJson } from './support';

interface PolicyJson { verdict: string; rule: string | null; reason: string }

describe('administrator policy (built CLI)', function () {
  this.timeout(20000);
  const temp = new TempDirs();
  before(requireBuiltCli);
  afterEach(() => temp.cleanup());

  /** A home whose user servers would each leave a marker file if they ever ran. */
  function layout(): { root: string; ws: string; home: string; marker: (name: string) => string } {
    const root = temp.make();
    const ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    const home = path.join(root, 'home');
    const marker = (name: string) => path.join(root, `${name}.ran`);
    const spawnMarker = (name: string) => ({ command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker(name))}, '')`] });
    writeJson(path.join(home, '.mcp.json'), {
      mcpServers: {
        evil: spawnMarker('evil'),
        pkg: { command: 'npx', args: ['-y', '@evil/server@1.2.3'] },
        fine: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      },
    });
    return { root, ws, home, marker };
  }

  function policies(ws: string, home: string, policy: string): Record<string, PolicyJson> {
    const result = runCli(['config', '--workspace', ws, '--home', home, '--policy', policy, '--json'], { SWITCHBOARD_POLICY_FILE: undefined });
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { servers: { name: string; policy: PolicyJson }[] };
    return Object.fromEntries(output.servers.map((server) => [server.name, server.policy]));
  }

  it('config --json shows the verdict and the rule of each server', () => {
    const { root, ws, home } = layout();
    const policy = write(path.join(root, 'policy.json'), '{\n  // keep these off\n  "deniedServers": ["evil", { "npm": "@evil/*" }]\n}\n');
    assert.deepEqual(policies(ws, home, policy), {
      evil: { verdict: 'denied', rule: `deniedServers[0] in ${policy}`, reason: `blocked by policy: deniedServers[0] in ${policy} (name "evil")` },
      fine: { verdict: 'allowed', rule: null, reason: 'no policy rule applies' },
      pkg: { verdict: 'denied', rule: `deniedServers[1] in ${policy}`, reason: `blocked by policy: deniedServers[1] in ${policy} (npm "@evil/*")` },
    });
  });

  it('a denied server is never spawned: status holds it with the rule, call refuses it', () => {
    const { root, ws, home, marker } = layout();
    const policy = writeJson(path.join(root, 'policy.json'), { onlyAllowlisted: true, allowedServers: [{ url: 'http://127.0.0.1:*' }] });
    const status = runCli(['status', '--workspace', ws, '--home', home, '--policy', policy, '--json', '--timeout', '3000']);
    const servers = (JSON.parse(status.stdout) as { servers: { name: string; state: string; error: string | null }[] }).servers;
    const evil = servers.find((server) => server.name === 'evil');
    assert.equal(evil?.state, 'disabled');
    assert.equal(evil?.error, `blocked by policy: only allowlisted servers may run (onlyAllowlisted in ${policy}) and no allowedServers rule matches it`);
    const call = runCli(['call', 'evil', 'anything', '{}', '--workspace', ws, '--home', home, '--policy', policy]);
    assert.equal(call.status, 1);
    assert.match(call.stderr, /server 'evil' is blocked by policy: only allowlisted servers may run/);
    assert.equal(fs.existsSync(marker('evil')), false, 'the denied server never ran');
  });

  it('a policy file that cannot be understood blocks every server and says where', () => {
    const { root, ws, home } = layout();
    const policy = write(path.join(root, 'policy.json'), '{ "deniedServers": [ { "nmae": "evil" } ] }');
    const result = runCli(['config', '--workspace', ws, '--home', home, '--policy', policy, '--json']);
    const output = JSON.parse(result.stdout) as { servers: { policy: PolicyJson }[]; problems: { file: string; line: number; column: number; message: string }[] };
    assert.deepEqual([...new Set(output.servers.map((server) => server.policy.verdict))], ['denied']);
    assert.deepEqual(output.problems.map((p) => [p.file, p.line, p.column, p.message]), [
      [policy, 1, 22, 'deniedServers[0] has "nmae", which is not one of name, npm, pypi, docker, command, url, fingerprint; no server runs until it is fixed'],
    ]);
  });

  it('config --policy reads each server\'s command line as its launcher does', () => {
    const { root, ws, home } = layout();
    const allowedPackage = '@modelcontextprotocol/server-memory';
    writeJson(path.join(home, '.mcp.json'), {
      mcpServers: {
        memory: { command: 'npx', args: ['-y', `${allowedPackage}@2025.1.1`] },
        cacheValue: { command: 'npx', args: ['-y', '--cache', allowedPackage, 'evil-pkg'] },
        alias: { command: 'npx', args: [`${allowedPackage}@npm:evil-pkg`] },
        npmX: { command: 'npm', args: ['x', '-y', 'evil-pkg'] },
        unknownOption: { command: 'npx', args: ['--frobnicate', allowedPackage] },
        envDocker: { command: 'env', args: ['docker', 'run', '-i', 'mcp/fetch'] },
        dockerExe: { command: 'C:\\Program Files\\Docker\\Docker\\resources\\bin\\DOCKER.EXE', args: ['run', '-i', 'mcp/fetch'] },
        upperHost: { type: 'http', url: 'HTTPS://Evil.Example.:443/' },
      },
    });
    const policy = writeJson(path.join(root, 'policy.json'), {
      onlyAllowlisted: true,
      allowedServers: [{ npm: '@modelcontextprotocol/*' }],
      deniedServers: [{ command: 'docker' }, { url: 'https://evil.example/*' }, { npm: 'evil-pkg' }],
    });
    const verdicts = policies(ws, home, policy);
    const only = `blocked by policy: only allowlisted servers may run (onlyAllowlisted in ${policy}) and no allowedServers rule matches it`;
    assert.deepEqual(verdicts.memory, { verdict: 'allowed', rule: `allowedServers[0] in ${policy}`, reason: `allowed by policy: allowedServers[0] in ${policy} (npm "@modelcontextprotocol/*")` });
    for (const name of ['cacheValue', 'alias', 'npmX']) assert.deepEqual(verdicts[name], { verdict: 'denied', rule: `deniedServers[2] in ${policy}`, reason: `blocked by policy: deniedServers[2] in ${policy} (npm "evil-pkg")` }, name);
    assert.deepEqual(verdicts.unknownOption, {
      verdict: 'denied', rule: `deniedServers[2] in ${policy}`,
      reason: `blocked by policy: deniedServers[2] in ${policy} (npm "evil-pkg"), which may match: what it runs is not determined at frobnicate (an option npm does not have)`,
    });
    for (const name of ['envDocker', 'dockerExe']) assert.deepEqual(verdicts[name], { verdict: 'denied', rule: `deniedServers[0] in ${policy}`, reason: `blocked by policy: deniedServers[0] in ${policy} (command "docker")` }, name);
    assert.deepEqual(verdicts.upperHost, { verdict: 'denied', rule: `deniedServers[1] in ${policy}`, reason: `blocked by policy: deniedServers[1] in ${policy} (url "https://evil.example/*")` });
    // Without the deny rules, what is not determined is still not allowlisted, and the reason names the word.
    const onlyPolicy = writeJson(path.join(root, 'only.json'), { onlyAllowlisted: true, allowedServers: [{ npm: '@modelcontextprotocol/*' }] });
    const table = runCli(['config', '--workspace', ws, '--home', home, '--policy', onlyPolicy], { SWITCHBOARD_POLICY_FILE: undefined });
    assert.equal(table.status, 0, table.stderr);
    assert.ok(table.stdout.includes(`not started: ${only.replace(policy, onlyPolicy)} (what it runs is not determined at frobnicate (an option npm does not have))`), table.stdout);
    assert.ok(table.stdout.includes(`not started: ${only.replace(policy, onlyPolicy)}\n`), 'the alias and the cache value are plainly not allowlisted');
  });

  it('servers the policy provides are the managed scope: above the user\'s, allowed, started; the approval mode lock is shown', () => {
    const { root, ws, home, marker } = layout();
    const provided = { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker('provided'))}, '')`] };
    const policy = writeJson(path.join(root, 'policy.json'), { onlyAllowlisted: true, approvalMode: 'acceptEdits', mcpServers: { evil: provided } });
    const result = runCli(['config', '--workspace', ws, '--home', home, '--policy', policy, '--json'], { SWITCHBOARD_POLICY_FILE: undefined });
    assert.equal(result.status, 0, result.stderr);
    const output = JSON.parse(result.stdout) as {
      servers: { name: string; scope: string; policy: PolicyJson }[]; shadowed: { name: string; scope: string; shadowedBy: { scope: string; file: string } }[];
      problems: unknown[]; approvalLock: { mode: string; origin: string } | null;
    };
    const evil = output.servers.find((server) => server.name === 'evil');
    assert.equal(evil?.scope, 'managed');
    assert.deepEqual(evil?.policy, { verdict: 'allowed', rule: policy, reason: `provided by the policy (${policy})` });
    assert.deepEqual(output.shadowed.map((entry) => [entry.name, entry.scope, entry.shadowedBy.scope, entry.shadowedBy.file]), [['evil', 'user', 'managed', policy]]);
    assert.equal(output.servers.find((server) => server.name === 'pkg')?.policy.verdict, 'denied', 'only allowlisted still holds for the rest');
    assert.deepEqual(output.problems, []);
    assert.deepEqual(output.approvalLock, { mode: 'acceptEdits', origin: `approvalMode in ${policy}` });
  });
});
