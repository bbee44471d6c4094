import * as assert from 'node:assert/strict';
import { parseLayer } from '../../src/core/config/parse';
import { MAX_CONFIG_BYTES } from '../../src/core/config/ports';
import type { LayerSpec } from '../../src/core/config/types';
import { brief, briefs, makeSpec, parseJson, parseText } from './helpers/config';

const lines = (...parts: string[]): string => parts.join('\n');

describe('parseLayer: documents', () => {
  it('reads a stdio server with its source range and defaults', () => {
    const text = lines(
      '{',
      '  "mcpServers": {',
      '    "files": {',
      '      "command": "npx",',
      '      "args": ["-y", "server-filesystem"],',
      '      "env": { "DEBUG": "1" },',
      '      "timeout": 5000',
      '    }',
      '  }',
      '}');
    const layer = parseText(text);
    assert.deepEqual(layer.problems, []);
    assert.equal(layer.usable, true);
    assert.deepEqual(layer.servers, [{
      name: 'files',
      scope: 'project',
      folder: '/ws/app',
      launch: { type: 'stdio', command: 'npx', args: ['-y', 'server-filesystem'], env: { DEBUG: '1' }, headers: {} },
      timeout: 5000,
      disabled: false,
      alwaysLoad: false,
      needsInput: [],
      source: { file: '/ws/app/.mcp.json', line: 3, column: 5, endLine: 3, endColumn: 12, offset: text.indexOf('"files"'), length: 7 },
    }]);
  });

  it('infers http from a url and keeps headers; remote servers have no args or env', () => {
    const layer = parseJson({ mcpServers: { remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } } } });
    assert.deepEqual(layer.problems, []);
    assert.deepEqual(layer.servers[0].launch, { type: 'http', url: 'https://example.com/mcp', args: [], env: {}, headers: { Authorization: 'Bearer x' } });
  });

  it('infers ws from a ws:// url and maps the streamable-http aliases to http', () => {
    const layer = parseJson({
      mcpServers: {
        socket: { url: 'wss://example.com/mcp' },
        a: { type: 'streamable-http', url: 'https://a.example/mcp' },
        b: { type: 'streamableHttp', url: 'https://b.example/mcp' },
        c: { type: 'sse', url: 'http://localhost:3000/sse' },
      },
    });
    assert.deepEqual(layer.problems, []);
    assert.deepEqual(layer.servers.map((s) => [s.name, s.launch.type]), [['socket', 'ws'], ['a', 'http'], ['b', 'http'], ['c', 'sse']]);
  });

  it('accepts comments and trailing commas', () => {
    const layer = parseText(lines(
      '// servers for this repo',
      '{',
      '  /* the file server */',
      '  "mcpServers": { "files": { "command": "npx", "args": ["a",], }, },',
      '}'));
    assert.deepEqual(layer.problems, []);
    assert.deepEqual(layer.servers[0].launch.args, ['a']);
  });

  it('treats a missing file as normal: no servers, no problem', () => {
    assert.deepEqual(parseLayer(makeSpec(), { kind: 'missing' }), { spec: makeSpec(), servers: [], inputs: [], problems: [], usable: true });
  });

  it('reports a directory at the start of the file and marks the layer unusable', () => {
    const layer = parseLayer(makeSpec(), { kind: 'directory' });
    assert.deepEqual(briefs(layer), ['is-directory error 1:1-1:1']);
    assert.equal(layer.problems[0].file, '/ws/app/.mcp.json');
    assert.equal(layer.usable, false);
  });

  it('reports an unreadable file with the reason', () => {
    const layer = parseLayer(makeSpec(), { kind: 'unreadable', message: 'EACCES: permission denied' });
    assert.deepEqual(briefs(layer), ['unreadable error 1:1-1:1']);
    assert.match(layer.problems[0].message, /EACCES: permission denied/);
    assert.equal(layer.usable, false);
  });

  it('reports a file that is too large with its size and the limit', () => {
    const layer = parseLayer(makeSpec(), { kind: 'tooLarge', size: 5_000_000 });
    assert.deepEqual(briefs(layer), ['too-large error 1:1-1:1']);
    assert.match(layer.problems[0].message, /5000000 bytes/);
    assert.match(layer.problems[0].message, new RegExp(`${MAX_CONFIG_BYTES} bytes`));
    assert.equal(layer.usable, false);
  });

  it('warns about an empty file, or one with only whitespace and comments, and stays usable', () => {
    for (const text of ['', '  \n\t\n', '// nothing yet\n/* later */\n']) {
      const layer = parseText(text);
      assert.deepEqual(briefs(layer), ['empty warning 1:1-1:1'], JSON.stringify(text));
      assert.equal(layer.usable, true);
      assert.deepEqual(layer.servers, []);
    }
  });

  it('reports a top-level null, array or string as not-an-object at its range', () => {
    assert.deepEqual(briefs(parseText('null')), ['not-an-object error 1:1-1:5']);
    const array = parseText('\n  [ { "command": "x" } ]');
    assert.deepEqual(briefs(array), ['not-an-object error 2:3-2:25']);
    assert.match(array.problems[0].message, /contains an array/);
    assert.deepEqual(briefs(parseText('"servers"')), ['not-an-object error 1:1-1:10']);
    assert.equal(parseText('null').usable, false);
  });

  it('ignores unknown top-level keys that other tools write', () => {
    const layer = parseJson({ $schema: 'x', globalShortcut: 'Ctrl+M', mcpServers: { a: { command: 'a' } } });
    assert.deepEqual(layer.problems, []);
    assert.equal(layer.servers.length, 1);
  });

  it('uses spec.inline instead of what was read', () => {
    const layer = parseLayer(makeSpec({ scope: 'plugin', file: 'api:pub.tool', inline: '{"servers":{"x":{"command":"x"}}}' }), { kind: 'missing' });
    assert.deepEqual(layer.servers.map((s) => s.name), ['x']);
    assert.equal(layer.servers[0].source.file, 'api:pub.tool');
  });

  it('never throws, even for a malformed spec', () => {
    const broken = { scope: 'user', file: '/f' } as unknown as LayerSpec;
    const layer = parseLayer(broken, { kind: 'text', text: '{"mcpServers":{"a":{"command":"${X}"}}}' });
    assert.deepEqual(briefs(layer), ['internal error 1:1-1:1']);
    assert.equal(layer.usable, false);
  });
});

describe('parseLayer: syntax, encodings and line endings', () => {
  it('reports a missing comma at its exact position and returns no servers', () => {
    const text = lines(
      '{',
      '  "mcpServers": {',
      '    "a": { "command": "a" }',
      '    "b": { "command": "b" }',
      '  }',
      '}');
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['syntax error 4:5-4:8']);
    assert.match(layer.problems[0].message, /^Expected comma\./);
    assert.equal(layer.usable, false);
    assert.deepEqual(layer.servers, []);
  });

  it('reports every syntax error, each with its own message', () => {
    const layer = parseText('{ mcpServers: { "a": { "command": \'x\' } } }');
    assert.deepEqual(briefs(layer), [
      'syntax error 1:3-1:13',
      'syntax error 1:13-1:14',
      'syntax error 1:35-1:38',
      'syntax error 1:39-1:40',
      'syntax error 1:41-1:42',
    ]);
    assert.deepEqual(layer.problems.map((p) => p.message.split('.')[0]),
      ['Invalid symbol', 'Expected a property name', 'Invalid symbol', 'Expected a value', 'Expected end of file']);
  });

  it('reports an unterminated string and an unterminated comment', () => {
    assert.deepEqual(briefs(parseText('{ "a": "open }')), ['syntax error 1:8-1:15', 'syntax error 1:15-1:15']);
    assert.match(parseText('{ "a": "open }').problems[0].message, /^Unterminated string/);
    const comment = parseText('{}\n/* never closed');
    assert.deepEqual(briefs(comment), ['syntax error 2:1-2:16']);
    assert.match(comment.problems[0].message, /^Unterminated comment/);
  });

  it('strips a BOM with a warning and keeps positions as the editor shows them', () => {
    const layer = parseText('\uFEFF{\n  "mcpServers": { "a": { "command": 1 } }\n}');
    assert.deepEqual(briefs(layer), ['bom warning 1:1-1:1', 'wrong-type error 2:37-2:38']);
    assert.equal(layer.usable, true);
  });

  it('parses a CRLF file without a warning and with correct lines and columns', () => {
    const text = '{\r\n  "mcpServers": {\r\n    "a": { "command": "" }\r\n  }\r\n}\r\n';
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['empty-command error 3:23-3:25']);
    assert.equal(layer.problems[0].line, 3);
  });

  it('reports syntax errors in a CRLF file at the right line', () => {
    const layer = parseText('{\r\n  "mcpServers": {\r\n    "a": { "command": "a" },,\r\n  }\r\n}');
    // The stray comma is both a missing property name and a missing value to the parser.
    assert.deepEqual(briefs(layer), ['syntax error 3:29-3:30', 'syntax error 3:29-3:30']);
    assert.match(layer.problems[0].message, /^Expected a property name/);
  });

  it('warns once at the first line ending that differs when endings are mixed', () => {
    const text = '{\r\n  "mcpServers": {\n    "a": { "command": "a" }\r\n  }\n}';
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['crlf warning 2:18-3:1']);
    assert.match(layer.problems[0].message, /Line 2 ends with LF but earlier lines end with CRLF/);
    assert.equal(layer.servers.length, 1);
  });

  it('counts a lone CR as a line break, as VS Code does', () => {
    const layer = parseText('{\r"mcpServers": {\r"a": {"command": 7}}}');
    assert.deepEqual(briefs(layer), ['wrong-type error 3:18-3:19']);
  });
});

describe('parseLayer: server sections', () => {
  it('merges "mcpServers" and "servers", warning at the second key', () => {
    const text = lines(
      '{',
      '  "servers": { "a": { "command": "a" } },',
      '  "mcpServers": { "b": { "command": "b" } }',
      '}');
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['both-server-keys warning 3:3-3:15']);
    assert.deepEqual(layer.servers.map((s) => s.name), ['a', 'b']);
  });

  it('uses the later definition when a name is in both sections, with a warning there', () => {
    const text = lines(
      '{',
      '  "mcpServers": { "a": { "command": "first" } },',
      '  "servers": { "a": { "command": "second" } }',
      '}');
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['both-server-keys warning 3:3-3:12', 'duplicate-server warning 3:16-3:19']);
    assert.deepEqual(layer.servers.map((s) => s.launch.command), ['second']);
  });

  it('reports a non-object "mcpServers" as an error and marks the layer unusable', () => {
    const layer = parseText('{\n  "mcpServers": [ { "command": "a" } ]\n}');
    assert.deepEqual(briefs(layer), ['wrong-type error 2:17-2:39']);
    assert.equal(layer.usable, false);
  });

  it('warns at a duplicate key anywhere in the file; the last one wins', () => {
    const text = lines(
      '{',
      '  "mcpServers": {',
      '    "a": { "command": "old", "command": "new" },',
      '    "b": { "command": "b" },',
      '    "b": { "command": "b2" }',
      '  }',
      '}');
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), ['duplicate-key warning 3:30-3:39', 'duplicate-key warning 5:5-5:8']);
    assert.match(layer.problems[0].message, /first on line 3/);
    assert.deepEqual(layer.servers.map((s) => [s.name, s.launch.command]), [['a', 'new'], ['b', 'b2']]);
  });

  it('reads servers under spec.root, with positions inside the package.json', () => {
    const text = lines(
      '{',
      '  "name": "tool",',
      '  "mcpServers": { "ignored": { "command": "x" } },',
      '  "contributes": {',
      '    "commands": [],',
      '    "mcpServers": {',
      '      "tool": { "command": "${extensionPath}/bin/server", "args": [1] },',
      '      "ok": { "command": "${extensionPath}/bin/ok" }',
      '    }',
      '  }',
      '}');
    const spec = makeSpec({ scope: 'plugin', file: '/ext/tool/package.json', folder: undefined, root: ['contributes'], label: 'pub.tool', vars: { env: {}, userHome: '/h', extensionPath: '/ext/tool' } });
    const layer = parseLayer(spec, { kind: 'text', text });
    assert.deepEqual(briefs(layer), ['wrong-type error 7:68-7:69']);
    assert.deepEqual(layer.servers.map((s) => [s.name, s.launch.command, s.source.line, s.source.column]), [['ok', '/ext/tool/bin/ok', 8, 7]]);
    assert.equal(layer.servers[0].folder, undefined);
  });

  it('reads nothing, without a problem, from a package.json without contributes.mcpServers', () => {
    const spec = makeSpec({ scope: 'plugin', root: ['contributes'] });
    assert.deepEqual(parseLayer(spec, { kind: 'text', text: '{ "name": "x", "contributes": { "commands": [] } }' }).problems, []);
    assert.deepEqual(parseLayer(spec, { kind: 'text', text: '{ "name": "x" }' }).servers, []);
  });

  it('loads the good entries of a file whose other entries have errors', () => {
    const layer = parseJson({ mcpServers: { bad: { command: 42 }, good: { command: 'ok' } } });
    assert.deepEqual(layer.problems.map((p) => p.code), ['wrong-type']);
    assert.deepEqual(layer.servers.map((s) => s.name), ['good']);
    assert.equal(layer.usable, true);
  });
});

describe('parseLayer: entry fields', () => {
  const entry = (fields: string): ReturnType<typeof parseText> => parseText(`{"mcpServers": {"s": {${fields}}}}`);
  // The fields start at column 23, after `{"mcpServers": {"s": {`.

  it('rejects a non-object entry', () => {
    const layer = parseText('{"mcpServers": {"s": "npx server"}}');
    assert.deepEqual(briefs(layer), ['wrong-type error 1:22-1:34']);
    assert.match(layer.problems[0].message, /must be an object/);
  });

  it('reports a wrong-typed command at its value and skips the entry', () => {
    const layer = entry('"command": ["npx"]');
    assert.deepEqual(briefs(layer), ['wrong-type error 1:34-1:41']);
    assert.match(layer.problems[0].message, /"command" of server "s" must be a string, but it is an array/);
    assert.deepEqual(layer.servers, []);
  });

  it('reports a non-string args item at the item, suggesting quotes', () => {
    const layer = entry('"command": "x", "args": ["--port", 8080]');
    assert.deepEqual(briefs(layer), ['wrong-type error 1:58-1:62']);
    assert.match(layer.problems[0].message, /item 2 is a number; write it in quotes: "8080"/);
  });

  it('reports a non-array args', () => {
    assert.deepEqual(briefs(entry('"command": "x", "args": "--port 1"')), ['wrong-type error 1:47-1:57']);
  });

  it('reports a non-string env value naming the key', () => {
    const layer = entry('"command": "x", "env": {"PORT": 8080, "DEBUG": true}');
    assert.deepEqual(briefs(layer), ['wrong-type error 1:55-1:59', 'wrong-type error 1:70-1:74']);
    assert.match(layer.problems[0].message, /env "PORT" of server "s" must be a string, but it is a number/);
    assert.match(layer.problems[1].message, /env "DEBUG" .* but it is true/);
  });

  it('reports non-string headers and a non-object env', () => {
    assert.deepEqual(briefs(entry('"url": "https://x.dev", "headers": {"X-Retry": 3}')), ['wrong-type error 1:70-1:71']);
    assert.deepEqual(briefs(entry('"command": "x", "env": "A=1"')), ['wrong-type error 1:46-1:51']);
  });

  it('checks timeout is a positive number of milliseconds', () => {
    assert.deepEqual(briefs(entry('"command": "x", "timeout": -5')), ['wrong-type error 1:50-1:52']);
    assert.deepEqual(briefs(entry('"command": "x", "timeout": "30s"')), ['wrong-type error 1:50-1:55']);
    assert.deepEqual(briefs(entry('"command": "x", "timeout": 0')), ['wrong-type error 1:50-1:51']);
    assert.equal(entry('"command": "x", "timeout": 1500').servers[0].timeout, 1500);
  });

  it('checks the booleans and string lists, and keeps their values', () => {
    assert.deepEqual(briefs(entry('"command": "x", "disabled": "yes"')), ['wrong-type error 1:51-1:56']);
    assert.deepEqual(briefs(entry('"command": "x", "alwaysLoad": 1')), ['wrong-type error 1:53-1:54']);
    assert.deepEqual(briefs(entry('"command": "x", "allowedTools": "read"')), ['wrong-type error 1:55-1:61']);
    const ok = entry('"command": "x", "disabled": true, "alwaysLoad": true, "allowedTools": ["read"], "disabledTools": ["write", "delete"]').servers[0];
    assert.deepEqual([ok.disabled, ok.alwaysLoad, ok.allowedTools, ok.disabledTools], [true, true, ['read'], ['write', 'delete']]);
  });

  it('takes alwaysLoad as true, false or a list of tool names', () => {
    assert.deepEqual(entry('"command": "x", "alwaysLoad": ["read_file", "search_*"]').servers[0].alwaysLoad, ['read_file', 'search_*']);
    assert.deepEqual(entry('"command": "x", "alwaysLoad": []').servers[0].alwaysLoad, []);
    assert.equal(entry('"command": "x", "alwaysLoad": false').servers[0].alwaysLoad, false);
    assert.equal(entry('"command": "x"').servers[0].alwaysLoad, false);
    const wrong = entry('"command": "x", "alwaysLoad": "read_file"');
    assert.deepEqual(briefs(wrong), ['wrong-type error 1:53-1:64']);
    assert.match(wrong.problems[0].message, /"alwaysLoad" of server "\w+" must be true, false or an array of tool names/);
    assert.deepEqual(briefs(entry('"command": "x", "alwaysLoad": ["read", 2]')), ['wrong-type error 1:62-1:63']);
  });

  it('reports an unknown type listing the valid ones', () => {
    const layer = entry('"type": "grpc", "command": "x"');
    assert.deepEqual(briefs(layer), ['unknown-type error 1:31-1:37']);
    assert.match(layer.problems[0].message, /"stdio", "http", "sse" or "ws"/);
    assert.deepEqual(layer.servers, []);
  });

  it('reports an empty or whitespace command', () => {
    assert.deepEqual(briefs(entry('"command": "   "')), ['empty-command error 1:34-1:39']);
  });

  it('reports a url with an unsupported scheme, without a scheme, or unparseable', () => {
    const ftp = entry('"url": "ftp://files.example"');
    assert.deepEqual(briefs(ftp), ['bad-url error 1:30-1:51']);
    assert.match(ftp.problems[0].message, /uses "ftp:"/);
    assert.match(entry('"url": "localhost:3000"').problems[0].message, /is not a valid URL \("localhost:3000"\)/);
    assert.deepEqual(briefs(entry('"url": "http://exa mple.com"')), ['bad-url error 1:30-1:51']);
  });

  it('reports both command and url at the url key', () => {
    const layer = entry('"command": "x", "url": "https://x.dev"');
    assert.deepEqual(briefs(layer), ['conflicting-fields error 1:39-1:44']);
  });

  it('reports neither command nor url at the server name', () => {
    const layer = entry('"args": ["x"]');
    assert.deepEqual(briefs(layer), ['missing-command-or-url error 1:17-1:20']);
  });

  it('reports a type that does not fit the fields or the url scheme', () => {
    assert.deepEqual(briefs(entry('"type": "stdio", "url": "https://x.dev"')), ['type-mismatch error 1:31-1:38']);
    assert.deepEqual(briefs(entry('"type": "http", "command": "x"')), ['type-mismatch error 1:31-1:37']);
    assert.deepEqual(briefs(entry('"type": "ws", "url": "https://x.dev"')), ['type-mismatch error 1:44-1:59']);
    assert.deepEqual(briefs(entry('"type": "sse", "url": "ws://x.dev"')), ['type-mismatch error 1:45-1:57']);
  });

  it('warns about unknown fields and fields the transport ignores, and keeps the entry', () => {
    const layer = entry('"command": "x", "autoApprove": [], "headers": {}');
    assert.deepEqual(briefs(layer), ['unknown-field warning 1:39-1:52', 'ignored-field warning 1:58-1:67']);
    assert.match(layer.problems[0].message, /Unknown field "autoApprove" in server "s", ignored/);
    assert.equal(layer.servers.length, 1);
    assert.deepEqual(briefs(entry('"url": "https://x.dev", "cwd": "/srv/data"')), ['ignored-field warning 1:47-1:52']);
  });

  it('warns about a server name with unsafe characters or an empty one, and keeps it', () => {
    const layer = parseText('{"mcpServers": {"my server!": {"command": "x"}, "": {"command": "y"}}}');
    assert.deepEqual(briefs(layer), ['server-name warning 1:17-1:29', 'server-name warning 1:49-1:51']);
    assert.deepEqual(layer.servers.map((s) => s.name), ['my server!', '']);
  });
});

describe('parseLayer: inputs', () => {
  it('reads promptString and pickString inputs', () => {
    const layer = parseJson({
      inputs: [
        { id: 'token', type: 'promptString', description: 'API token', password: true },
        { id: 'region', type: 'pickString', options: ['eu', { label: 'US', value: 'us' }], default: 'eu' },
      ],
      servers: {},
    });
    assert.deepEqual(layer.problems, []);
    assert.deepEqual(layer.inputs.map(({ source: _source, ...rest }) => rest), [
      { id: 'token', type: 'promptString', description: 'API token', password: true },
      { id: 'region', type: 'pickString', options: ['eu', 'us'], default: 'eu' },
    ]);
    assert.equal(layer.inputs[0].source.line, 3);
  });

  it('reports inputs without an id, with an unsupported type, or a pickString without options', () => {
    const text = lines(
      '{"inputs": [',
      '  { "type": "promptString" },',
      '  { "id": "a", "type": "command" },',
      '  { "id": "b", "type": "pickString" },',
      '  { "id": 3, "type": "promptString" },',
      '  "c",',
      '  { "id": "ok", "type": "promptString" },',
      '  { "id": "ok", "type": "promptString", "password": true }',
      ']}');
    const layer = parseText(text);
    assert.deepEqual(briefs(layer), [
      'invalid-input error 2:3-2:29',
      'invalid-input error 3:24-3:33',
      'invalid-input error 4:24-4:36',
      'wrong-type error 5:11-5:12',
      'wrong-type error 6:3-6:6',
      'duplicate-input warning 8:3-8:59',
    ]);
    assert.deepEqual(layer.inputs.map((i) => [i.id, i.password]), [['ok', undefined]]);
  });

  it('reports a non-array inputs', () => {
    assert.deepEqual(briefs(parseText('{"inputs": {}}')), ['wrong-type error 1:12-1:14']);
  });
});

describe('problem positions', () => {
  it('gives 1-based ranges that VS Code can use directly', () => {
    const problem = parseText('{"mcpServers": {"s": {"command": ""}}}').problems[0];
    assert.equal(brief(problem), 'empty-command error 1:34-1:36');
    assert.equal(problem.file, '/ws/app/.mcp.json');
  });
});
