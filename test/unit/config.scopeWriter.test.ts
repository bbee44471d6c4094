// Writing entries into scope files: new text only, comments and formatting kept, a name that exists
// refused unless forced, inputs declared once, a broken file never written.
import * as assert from 'node:assert/strict';
import { addServer, declareInputs, removeServer, serverNames, type WriteResult } from '../../src/core/config/scopeWriter';

const text = (result: WriteResult): string => {
  assert.ok(result.ok, result.ok ? '' : result.refusal.message);
  return result.text;
};

describe('scope writer', () => {
  const original = [
    '{',
    '    // my servers',
    '    "mcpServers": {',
    '        "memory": { "command": "echo" } // keep',
    '    }',
    '}',
    '',
  ].join('\n');

  it('adds a server after the last one, keeping every existing line and its comment', () => {
    const result = text(addServer(original, 'files', { type: 'stdio', command: 'npx', args: ['-y', 'fs'] }));
    assert.equal(result, [
      '{',
      '    // my servers',
      '    "mcpServers": {',
      '        "memory": { "command": "echo" }, // keep',
      '        "files": {',
      '            "type": "stdio",',
      '            "command": "npx",',
      '            "args": [',
      '                "-y",',
      '                "fs"',
      '            ]',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n'));
  });

  it('reuses a trailing comma and keeps CRLF line endings', () => {
    const crlf = '{\r\n  "servers": {\r\n    "a": { "command": "x" },\r\n  }\r\n}\r\n';
    assert.equal(text(addServer(crlf, 'b', { command: 'y' })), '{\r\n  "servers": {\r\n    "a": { "command": "x" },\r\n    "b": {\r\n      "command": "y"\r\n    }\r\n  }\r\n}\r\n');
  });

  it('creates the file and the section when absent', () => {
    assert.equal(text(addServer(undefined, 'a', { command: 'x' })), '{\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n');
    assert.equal(text(addServer('{\n  "inputs": []\n}\n', 'a', { command: 'x' })), '{\n  "inputs": [],\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n');
  });

  it('refuses a name that exists (in either section) unless forced, and then replaces only that entry', () => {
    const refused = addServer(original, 'memory', { command: 'other' });
    assert.equal(refused.ok, false);
    assert.deepEqual(refused.ok ? undefined : refused.refusal, { kind: 'exists', message: 'a server named "memory" already exists in "mcpServers" (line 4)' });
    const forced = text(addServer(original, 'memory', { command: 'other' }, { force: true }));
    assert.ok(forced.includes('// my servers'));
    assert.ok(forced.includes('"command": "other"'));
    assert.deepEqual(serverNames(forced), ['memory']);
  });

  it('never writes into a file that is not valid JSON', () => {
    const result = addServer('{ "mcpServers": { "a": } }', 'b', { command: 'x' }, { file: '/ws/.mcp.json' });
    assert.deepEqual(result.ok ? undefined : result.refusal, { kind: 'broken', message: 'the file is not valid JSON (ValueExpected at /ws/.mcp.json:1:24); fix it first, nothing was written' });
  });

  it('removes a server and nothing else', () => {
    const added = text(addServer(original, 'files', { command: 'npx' }));
    const removed = text(removeServer(added, 'files'));
    assert.deepEqual(serverNames(removed), ['memory']);
    assert.ok(removed.includes('// my servers') && removed.includes('// keep'));
    const missing = removeServer(original, 'nope');
    assert.deepEqual(missing.ok ? undefined : missing.refusal, { kind: 'missing', message: 'no server named "nope"' });
  });

  it('declares inputs once, appending to an existing list', () => {
    const input = { id: 'key', type: 'promptString', password: true };
    const once = text(declareInputs(original, [input]));
    assert.equal(text(declareInputs(once, [input])), once);
    const twice = text(declareInputs(once, [{ id: 'other', type: 'promptString' }]));
    assert.ok(twice.includes('"id": "key"') && twice.includes('"id": "other"'));
  });
});

describe('scope writer: removing', () => {
  it('takes the entry\'s lines and its separating comma, nothing else', () => {
    const file = '{\n  "mcpServers": {\n    "a": { "command": "x" }, // first\n    "b": {\n      "command": "y"\n    } // second\n  }\n}\n';
    assert.equal(text(removeServer(file, 'b')), '{\n  "mcpServers": {\n    "a": { "command": "x" } // first\n  }\n}\n');
    assert.equal(text(removeServer(file, 'a')), '{\n  "mcpServers": {\n    "b": {\n      "command": "y"\n    } // second\n  }\n}\n');
    assert.equal(text(removeServer('{"mcpServers":{"a":{},"b":{}}}', 'a')), '{"mcpServers":{"b":{}}}');
  });
});

describe('scope writer: comments', () => {
  // Comments of every kind, where people put them: above the file, above and inside an entry, at the end
  // of the last entry's line, between entries, after the section.
  const commented = [
    '// servers for this machine',
    '{',
    '  /* the ones I use */',
    '  "mcpServers": {',
    '    // memory first',
    '    "memory": {',
    '      "command": "npx", // pinned below',
    '      "args": ["-y", "@modelcontextprotocol/server-memory@1.0.0"] /* exact */',
    '    },',
    '    /* between */',
    '    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } // last one',
    '  } // end of servers',
    '}',
    '',
  ].join('\n');

  it('an add keeps every comment byte for byte, and a remove of what was added gives the file back', () => {
    const added = text(addServer(commented, 'files', { type: 'stdio', command: 'npx', args: ['-y', 'fs'] }));
    assert.equal(added, commented.replace(
      '    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } // last one\n',
      '    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] }, // last one\n    "files": {\n      "type": "stdio",\n      "command": "npx",\n      "args": [\n        "-y",\n        "fs"\n      ]\n    }\n',
    ));
    assert.equal(text(removeServer(added, 'files')), commented);
  });

  it('a forced replace changes only that entry\'s value, the comments around it stay', () => {
    const replaced = text(addServer(commented, 'memory', { command: 'node', args: ['memory.js'] }, { force: true }));
    for (const comment of ['// servers for this machine', '/* the ones I use */', '// memory first', '/* between */', '// last one', '// end of servers']) {
      assert.ok(replaced.includes(comment), `kept: ${comment}`);
    }
    assert.deepEqual(serverNames(replaced), ['memory', 'fetch']);
    assert.ok(replaced.includes('"fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } // last one'), 'the neighbour is untouched');
  });
});
