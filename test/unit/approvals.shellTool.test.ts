// Which tool argument holds a shell command: by the argument's name, or by the tool's name when the
// argument is the runner's only string.
import * as assert from 'node:assert/strict';
import { shellCommandArgument, type ToolShape } from '../../src/core/approvals';

function tool(name: string, properties: Record<string, unknown>, required?: string[]): ToolShape {
  return { name, inputSchema: { type: 'object', properties, ...(required === undefined ? {} : { required }) } };
}

const STRING = { type: 'string' };

describe('shell command argument', () => {
  const cases: Array<[string, ToolShape, string | undefined]> = [
    ['an argument named command', tool('run', { command: STRING, cwd: STRING }), 'command'],
    ['an argument named cmd', tool('exec_in_container', { container: STRING, cmd: STRING }), 'cmd'],
    ['an argument named script', tool('automation', { script: STRING, timeout: { type: 'number' } }), 'script'],
    ['an argument named shell', tool('do', { shell: STRING }), 'shell'],
    ['commandLine, whatever its case and separators', tool('launch', { commandLine: STRING }), 'commandLine'],
    ['command_line', tool('launch', { command_line: STRING }), 'command_line'],
    ['a type list that includes string', tool('x', { command: { type: ['string', 'null'] } }), 'command'],
    ['command wins over script when both are there', tool('x', { script: STRING, command: STRING }), 'command'],
    ['a runner tool: its only required string', tool('run_in_terminal', { input: STRING, explanation: STRING }, ['input']), 'input'],
    ['a runner tool: its only string', tool('execute', { code: STRING, timeout: { type: 'number' } }), 'code'],
    ['a tool named bash', tool('bash', { input: STRING }), 'input'],
    ['an mcp__ prefixed runner', tool('mcp__desktop__execute_command', { line: STRING, timeoutMs: { type: 'number' } }), 'line'],
    ['a runner whose only string is not required, with another required', tool('shell_exec', { a: STRING, b: STRING }, ['a']), 'a'],
  ];
  for (const [title, shape, expected] of cases) {
    it(`${title} → ${expected}`, () => assert.equal(shellCommandArgument(shape), expected));
  }

  const none: Array<[string, ToolShape]> = [
    ['a command argument that is not a string', tool('run', { command: { type: 'array', items: STRING } })],
    ['a file tool', tool('read_file', { path: STRING })],
    ['a tool whose name only contains a runner word inside another word', tool('publish', { text: STRING })],
    ['a runner with two strings and no single required one', tool('run_command', { program: STRING, directory: STRING })],
    ['a tool without a schema', { name: 'echo' }],
    ['a schema whose properties are not an object', { name: 'bash', inputSchema: { properties: 'nope' } }],
    ['a description that mentions commands', tool('search', { query: { type: 'string', description: 'a shell command to look up' } })],
  ];
  for (const [title, shape] of none) {
    it(`${title} → none`, () => assert.equal(shellCommandArgument(shape), undefined));
  }
});
