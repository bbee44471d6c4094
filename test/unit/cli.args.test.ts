// The CLI's argument parser and the conformance client's sample arguments: pure functions, no process.
import * as assert from 'node:assert/strict';
import { Args, parseArgs, UsageError, type Command } from '../../src/cli/command';
import { sampleArguments } from '../../src/cli/conformance';

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
