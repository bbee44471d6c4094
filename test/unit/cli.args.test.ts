// The CLI's argument parser and the conformance client's steps (the calls a scenario asks for, sample arguments): pure functions, no process.
import * as assert from 'node:assert/strict';
import { Args, parseArgs, UsageError, type Command } from '../../src/cli/command';
import { conformanceSteps, sampleArguments } from '../../src/cli/conformanceSteps';
import type { ToolInfo } from '../../src/core/lifecycle';

const command: Command = {
  name: 'demo',
  summary: '',
  help: '',
  flags: { workspace: { kind: 'string', repeat: true, meta: 'DIR' }, json: { kind: 'boolean' }, timeout: { kind: 'string', meta: 'MS' } },
  positionals: { names: ['SERVER', 'TOOL', 'JSON-ARGS'], required: 2 },
  run: () => Promise.resolve(0),
};

function parse(argv: string[]): Args {
  const args = parseArgs(command, argv);
  assert.ok(args instanceof Args);
  return args;
}

describe('CLI arguments', () => {
  it('takes positionals between options, repeated and boolean flags, and --name=value', () => {
    const args = parse(['srv', '--workspace', 'a', 'tool', '--json', '--workspace=b', '{"x":1}', '--timeout', '5']);
    assert.deepEqual(args.positionals, ['srv', 'tool', '{"x":1}']);
    assert.deepEqual(args.strings('workspace'), ['a', 'b']);
    assert.equal(args.has('json'), true);
    assert.equal(args.string('timeout'), '5');
    assert.equal(args.string('missing'), undefined);
  });

  it('treats everything after -- as positional', () => {
    assert.deepEqual(parse(['--', '--odd-server', '-h']).positionals, ['--odd-server', '-h']);
  });

  it('names the first missing positional and rejects one too many', () => {
    assert.throws(() => parseArgs(command, ['srv']), (e: unknown) => e instanceof UsageError && e.message === 'missing TOOL');
    assert.throws(() => parseArgs(command, ['a', 'b', 'c', 'd']), /unexpected argument 'd'/);
  });

  it('answers help even when required positionals are missing', () => {
    assert.equal(parseArgs(command, ['srv', '-h']), 'help');
    assert.equal(parseArgs(command, ['--help']), 'help');
  });
});

describe('conformance client: sample arguments from an input schema', () => {
  it('fills every required property by default, enum or type, recursively, and nothing optional', () => {
    const args = sampleArguments({
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: 'number' },
          b: { type: 'integer' },
          name: { type: 'string', default: 'John' },
          mode: { type: 'string', enum: ['fast', 'slow'] },
          flag: { type: 'boolean' },
          list: { type: 'array' },
          nested: { type: 'object', properties: { n: { type: 'string' }, skip: { type: 'string' } }, required: ['n'] },
          optional: { type: 'string' },
        },
        required: ['a', 'b', 'name', 'mode', 'flag', 'list', 'nested'],
      },
    });
    assert.deepEqual(args, { a: 1, b: 1, name: 'John', mode: 'fast', flag: true, list: [], nested: { n: 'conformance' } });
  });

  it('gives {} for a schema without properties', () => {
    assert.deepEqual(sampleArguments({ inputSchema: { type: 'object' } }), {});
  });
});

describe('conformanceSteps', () => {
  const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }): ToolInfo => ({ name, inputSchema }) as ToolInfo;
  const tools = [tool('add', { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }), tool('ping')];

  it('makes no call in a handshake-only scenario', () => {
    assert.deepEqual(conformanceSteps('initialize', {}, tools), []);
  });

  it('makes exactly the calls the context lists, with their arguments as given (null kept)', () => {
    const context = { toolCalls: [{ name: 'ping', arguments: { verbose: null, text: ' padded ' } }, { name: 'add' }] };
    assert.deepEqual(conformanceSteps('http-custom-headers', context, tools), [
      { tool: 'ping', arguments: { verbose: null, text: ' padded ' } },
      { tool: 'add', arguments: {} },
    ]);
  });

  it('refuses a context whose toolCalls it cannot read, naming the entry', () => {
    assert.throws(() => conformanceSteps('x', { toolCalls: 'all' }, tools), /toolCalls is not a list/);
    assert.throws(() => conformanceSteps('x', { toolCalls: [{ name: 'ping' }, { name: 3 }] }, tools), /toolCalls\[1\] is not \{ name, arguments \}/);
    assert.throws(() => conformanceSteps('x', { toolCalls: [{ name: 'ping', arguments: [1] }] }, tools), /toolCalls\[0\]/);
  });

  it('sends the focal input schema back verbatim through the echo tool where the scenario says so', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { a: { $anchor: 'x' } }, additionalProperties: false };
    const steps = conformanceSteps('json-schema-2020-12-preservation', {}, [tool('json_schema_2020_12_tool', schema), tool('json_schema_echo')]);
    assert.deepEqual(steps, [{ tool: 'json_schema_echo', arguments: { schema } }]);
    assert.equal(steps[0].arguments.schema, schema, 'the schema as the catalog holds it, not a copy rebuilt from parts');
  });

  it('otherwise calls every tool once with sample arguments', () => {
    assert.deepEqual(conformanceSteps('tools_call', {}, tools), [{ tool: 'add', arguments: { a: 1 } }, { tool: 'ping', arguments: {} }]);
  });
});
