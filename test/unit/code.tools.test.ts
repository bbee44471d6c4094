// Code mode's two model tools: their declarations agree with package.json's languageModelTools, the API
// tool answers the listing or one server's declarations, and a run reads back as output, calls, error.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelToolCatalog } from '../../src/core/chat';
import { CODE_API_TOOL, CodeApi, codeRunText, describeCodeApi, RUN_CODE_TOOL } from '../../src/core/code';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: unknown }[] };
};

describe('code mode: the model tools', () => {
  for (const spec of [RUN_CODE_TOOL, CODE_API_TOOL]) {
    it(`${spec.name} is declared in package.json as the participant offers it`, () => {
      const declared = manifest.contributes.languageModelTools.find((tool) => tool.name === spec.name);
      assert.ok(declared, `${spec.name} is not in package.json`);
      assert.equal(declared.modelDescription, spec.description);
      assert.deepEqual(declared.inputSchema, spec.inputSchema);
    });
  }

  it('describes the API: the listing without a server, an unknown server with the listing, a server\'s declarations', async () => {
    const api = new CodeApi(new ModelToolCatalog([{ id: 'everything', state: { kind: 'ready' }, catalog: {
      tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }], resources: [], resourceTemplates: [], prompts: [],
    } }]));
    assert.match(await describeCodeApi(api, undefined), /^- tools\.everything \(1 tool: echo\)/);
    assert.match(await describeCodeApi(api, 'nope'), /^There is no server "nope" in the tools object\.\n\n- tools\.everything/);
    assert.match(await describeCodeApi(api, 'everything'), /echo\(args: echo\.Args\): Promise<ContentBlock\[\]>;/);
  });

  it('reads a run back as its output, its calls and the error that ended it', () => {
    assert.equal(codeRunText({ output: '', calls: [] }), 'Output: (nothing printed)\nCalls: none');
    assert.equal(codeRunText({
      output: 'five\nlines\n',
      calls: [{ server: 'fs', tool: 'read', ok: true }, { server: 'fs', tool: 'write', ok: false, error: 'rejected by the user: no' }],
      error: 'Error: rejected by the user: no',
    }), 'Output:\nfive\nlines\nCalls: fs › read ok\n  fs › write failed: rejected by the user: no\nError: Error: rejected by the user: no');
  });
});
