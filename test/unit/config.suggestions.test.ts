// A typo gets a fix, not only a problem: the one known name a mistyped field, type or top-level key
// most likely was, in the problem's message ("did you mean …?") and as the replacement its Quick Fix
// writes; nothing when no name is close or two are equally close.
import * as assert from 'node:assert/strict';
import { closestKnown } from '../../src/core/config/suggestions';
import { parseText } from './helpers/config';

const FIELDS = ['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'timeout', 'disabled'];

describe('closestKnown (the name a typo most likely was)', () => {
  it('finds the name a letter away, a swap away, or in another case', () => {
    assert.equal(closestKnown('comand', FIELDS), 'command');
    assert.equal(closestKnown('stdoi', ['stdio', 'http', 'sse', 'ws']), 'stdio');
    assert.equal(closestKnown('mcpServer', ['mcpServers', 'servers', 'inputs']), 'mcpServers');
    assert.equal(closestKnown('Command', FIELDS), 'command');
    assert.equal(closestKnown('hedaers', FIELDS), 'headers');
  });

  it('suggests nothing for a name far from every known one, a short name two edits away, or a known name', () => {
    assert.equal(closestKnown('autoApprove', FIELDS), undefined);
    assert.equal(closestKnown('x', ['stdio', 'http', 'sse', 'ws']), undefined);
    assert.equal(closestKnown('command', FIELDS), undefined);
  });

  it('suggests nothing when two names are equally close (a Quick Fix must not guess)', () => {
    assert.equal(closestKnown('sse', ['sss', 'ssf']), undefined);
    assert.equal(closestKnown('ar', ['args', 'env']), undefined);
  });
});

describe('config problems with a suggestion and its fix', () => {
  const entry = (fields: string, top = 'mcpServers') => parseText(`{"${top}": {"s": {${fields}}}}`);

  it('"comand": the unknown field says did you mean "command"? and its fix renames the key', () => {
    const layer = entry('"comand": "npx"');
    const unknown = layer.problems.find((p) => p.code === 'unknown-field');
    assert.ok(unknown);
    assert.equal(unknown.message, 'Unknown field "comand" in server "s", ignored; did you mean "command"?');
    assert.deepEqual(unknown.fix, { title: 'Rename to "command"', text: '"command"' });
    // The fix covers the key with its quotes: replacing that range gives a valid definition.
    assert.deepEqual([unknown.line, unknown.column, unknown.endColumn], [1, 23, 31]);
  });

  it('an unknown field far from any known one lists the known fields, with no fix', () => {
    const [unknown] = entry('"command": "x", "autoApprove": []').problems;
    assert.match(unknown.message, /ignored\. Known fields: type, command/);
    assert.equal(unknown.fix, undefined);
  });

  it('does not suggest a field the entry already has (the rename would duplicate it)', () => {
    const [unknown] = entry('"command": "x", "comand": "y"').problems;
    assert.equal(unknown.code, 'unknown-field');
    assert.equal(unknown.fix, undefined);
  });

  it('"stdoi": the unknown type says did you mean "stdio"? and its fix changes the value', () => {
    const problem = entry('"type": "stdoi", "command": "x"').problems.find((p) => p.code === 'unknown-type');
    assert.ok(problem);
    assert.match(problem.message, /^Unknown server type "stdoi" in server "s"; did you mean "stdio"\? Use "stdio", "http"/);
    assert.deepEqual(problem.fix, { title: 'Change to "stdio"', text: '"stdio"' });
    assert.deepEqual([problem.column, problem.endColumn], [31, 38]);
  });

  it('"mcpServer": the top-level key says its servers are ignored and did you mean "mcpServers"?', () => {
    const layer = entry('"command": "x"', 'mcpServer');
    assert.deepEqual(layer.servers, []);
    const [problem] = layer.problems;
    assert.equal(problem.code, 'unknown-key');
    assert.equal(problem.message, 'Unknown key "mcpServer", ignored (so are the servers in it); did you mean "mcpServers"?');
    assert.deepEqual(problem.fix, { title: 'Rename to "mcpServers"', text: '"mcpServers"' });
    assert.deepEqual([problem.line, problem.column, problem.endColumn], [1, 2, 13]);
  });

  it('leaves other top-level keys alone (other hosts\' files carry their own), and a file under another root', () => {
    assert.deepEqual(parseText('{"$schema": "x", "mcpServers": {}}').problems, []);
    assert.deepEqual(parseText('{"contributes": {"mcpServer": {}}}', { root: ['contributes'] }).problems, []);
  });
});
