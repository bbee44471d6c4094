import * as assert from 'node:assert/strict';
import { fingerprint } from '../../src/core/config/fingerprint';
import { inputIdsOf, inputsNeededBy, substituteInputs, withInputValues } from '../../src/core/config/inputs';
import type { LaunchDefinition } from '../../src/core/config/types';
import { makeServer } from './helpers/lifecycle';

const stdio: LaunchDefinition = {
  type: 'stdio',
  command: '${input:bin}',
  args: ['--token=${input:token}', '--mode', '${input:mode}', '${input:token}'],
  env: { API_KEY: '${input:token}', PLAIN: 'x', MIXED: 'a-${input:mode}-b' },
  cwd: '/srv/${input:dir}',
  headers: {},
};

const remote: LaunchDefinition = {
  type: 'http',
  url: 'https://${input:host}/mcp?key=${input:token}',
  args: [],
  env: {},
  headers: { Authorization: 'Bearer ${input:token}' },
};

describe('${input:…} at launch', () => {
  describe('inputIdsOf', () => {
    it('finds every id in command, args, env, cwd, url and headers, each once, in order of first use', () => {
      assert.deepEqual(inputIdsOf(stdio), ['bin', 'token', 'mode', 'dir']);
      assert.deepEqual(inputIdsOf(remote), ['host', 'token']);
    });

    it('ignores blank ids, other variables and unclosed references', () => {
      assert.deepEqual(inputIdsOf({ type: 'stdio', command: 'x', args: ['${input:}', '${input: }', '${env:HOME}', '${input:open'], env: {}, headers: {} }), []);
    });
  });

  describe('substituteInputs', () => {
    it('replaces each reference with its value everywhere it is used', () => {
      const values = { bin: 'node', token: 's3cr3t-value', mode: 'fast', dir: 'app' };
      assert.deepEqual(substituteInputs(stdio, values), {
        type: 'stdio',
        command: 'node',
        args: ['--token=s3cr3t-value', '--mode', 'fast', 's3cr3t-value'],
        env: { API_KEY: 's3cr3t-value', PLAIN: 'x', MIXED: 'a-fast-b' },
        cwd: '/srv/app',
        headers: {},
      });
      assert.deepEqual(substituteInputs(remote, { host: 'example.com', token: 'tok' }), {
        type: 'http',
        url: 'https://example.com/mcp?key=tok',
        args: [],
        env: {},
        headers: { Authorization: 'Bearer tok' },
      });
    });

    it('substitutes in one pass: a value that reads like a reference stays as typed', () => {
      const launch: LaunchDefinition = { type: 'stdio', command: 'x', args: ['${input:a}', '${input:b}'], env: {}, headers: {} };
      assert.deepEqual(substituteInputs(launch, { a: '${input:b}', b: 'B' }).args, ['${input:b}', 'B']);
      // `$&` and `$1` in a value are not replacement patterns.
      assert.deepEqual(substituteInputs(launch, { a: '$&$1', b: '$$' }).args, ['$&$1', '$$']);
    });

    it('leaves references without a value verbatim and never changes the input', () => {
      const before = JSON.stringify(stdio);
      const result = substituteInputs(stdio, { token: 'T' });
      assert.equal(result.command, '${input:bin}');
      assert.deepEqual(result.args, ['--token=T', '--mode', '${input:mode}', 'T']);
      assert.equal(JSON.stringify(stdio), before);
    });

    it('does not take ids from the prototype chain', () => {
      const launch: LaunchDefinition = { type: 'stdio', command: '${input:toString}', args: [], env: {}, headers: {} };
      assert.equal(substituteInputs(launch, {}).command, '${input:toString}');
    });
  });

  describe('withInputValues', () => {
    it('fills in launch and envFile, and keeps the id and the fingerprint of the definition as written', () => {
      const launch = { ...stdio, envFile: '/secrets/${input:token}.env' };
      const server = makeServer('api', { needsInput: ['token'], fingerprint: fingerprint(launch) }, launch);
      const resolved = withInputValues(server, { bin: 'node', token: 'T0KEN-VALUE', mode: 'm', dir: 'd' });
      assert.equal(resolved.id, 'api');
      assert.equal(resolved.fingerprint, fingerprint(launch));
      assert.equal(resolved.launch.envFile, '/secrets/T0KEN-VALUE.env');
      assert.equal(resolved.launch.env.API_KEY, 'T0KEN-VALUE');
      assert.equal(server.launch.env.API_KEY, '${input:token}');
    });
  });

  describe('inputsNeededBy', () => {
    it('is what the parser reported, plus any reference left in the launch or envFile', () => {
      const server = makeServer('api', { needsInput: ['token'] }, { args: ['${input:other}'], envFile: '${input:file}' });
      assert.deepEqual(inputsNeededBy(server), ['token', 'other', 'file']);
      assert.deepEqual(inputsNeededBy(makeServer('plain')), []);
    });
  });
});
