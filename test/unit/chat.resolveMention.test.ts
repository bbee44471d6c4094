// What a mention names: a listed resource, a template instance, an unfilled template, or nothing (then
// with the nearest names); and the server of a bare URI. Plus a read resource as model context.
import * as assert from 'node:assert/strict';
import { describeUnresolved, resolveMention, serversOfUri } from '../../src/core/chat/resolveMention';
import { attachResource, base64Bytes } from '../../src/core/chat/resourceContent';
import type { ChatServer } from '../../src/core/chat/modelTools';
import { emptyCatalog } from '../../src/core/lifecycle/catalog';

const servers: ChatServer[] = [
  {
    id: 'everything', state: { kind: 'ready' }, catalog: {
      ...emptyCatalog(),
      resources: [{ uri: 'demo://resource/static/document/architecture.md', name: 'architecture.md' }, { uri: 'demo://resource/static/document/features.md', name: 'features.md' }],
      resourceTemplates: [{ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', name: 'Dynamic Text' }],
    },
  },
  { id: 'docs', state: { kind: 'needsTrust' }, catalog: emptyCatalog() },
];

describe('resolveMention', () => {
  it('finds a listed resource', () => {
    const target = resolveMention('everything', 'demo://resource/static/document/architecture.md', servers);
    assert.equal(target.kind, 'resource');
  });

  it('finds a template instance with its values, and an unfilled template with its variables', () => {
    assert.deepEqual(resolveMention('everything', 'demo://resource/dynamic/text/5', servers), {
      kind: 'templateInstance', server: 'everything', uri: 'demo://resource/dynamic/text/5', template: servers[0].catalog.resourceTemplates[0], values: { resourceId: '5' },
    });
    const unfilled = resolveMention('everything', 'demo://resource/dynamic/text/{resourceId}', servers);
    assert.equal(unfilled.kind, 'template');
    assert.deepEqual((unfilled as { variables: string[] }).variables, ['resourceId']);
  });

  it('names the nearest server, a server that is not ready, and the nearest URIs', () => {
    const server = resolveMention('everythng', 'demo://x', servers);
    assert.deepEqual(server, { kind: 'unknownServer', server: 'everythng', suggestions: ['everything'] });
    assert.equal(describeUnresolved(server as never), 'There is no MCP server named "everythng"; did you mean "everything"?');
    const notReady = resolveMention('docs', 'file:///a', servers, () => 'needs trust');
    assert.equal(describeUnresolved(notReady as never), 'The MCP server "docs" is not ready (needs trust), so its resources cannot be read.');
    const uri = resolveMention('everything', 'demo://resource/static/document/architecture.mdx', servers);
    assert.equal(uri.kind, 'unknownUri');
    assert.deepEqual((uri as { suggestions: string[] }).suggestions[0], 'demo://resource/static/document/architecture.md');
    assert.match(describeUnresolved(uri as never), /^The MCP server "everything" has no resource demo:\/\/resource\/static\/document\/architecture\.mdx; nearest: demo:\/\/resource\/static\/document\/architecture\.md/);
  });

  it('offers a server\'s first resources when nothing is close', () => {
    const target = resolveMention('everything', 'zzz://nothing', servers);
    assert.deepEqual((target as { suggestions: string[] }).suggestions, [
      'demo://resource/static/document/architecture.md', 'demo://resource/static/document/features.md', 'demo://resource/dynamic/text/{resourceId}',
    ]);
  });

  it('finds the servers of a bare URI', () => {
    assert.deepEqual(serversOfUri('demo://resource/dynamic/text/9', servers), ['everything']);
    assert.deepEqual(serversOfUri('file:///nowhere', servers), []);
  });
});

describe('attachResource', () => {
  it('puts text inline in a resource block and describes binaries', () => {
    const attached = attachResource('everything', 'demo://a', [
      { uri: 'demo://a', mimeType: 'text/markdown', text: '# A' },
      { uri: 'demo://b', mimeType: 'image/png', blob: 'iVBORw0KGgo=' },
    ], 1000);
    assert.equal(attached.text, '<resource server="everything" uri="demo://a" mimeType="text/markdown">\n# A\n</resource>\n<resource server="everything" uri="demo://b" mimeType="image/png" binary="8 bytes">[binary content, not shown]</resource>');
    assert.deepEqual(attached.binaries, [{ uri: 'demo://b', mimeType: 'image/png', bytes: 8 }]);
    assert.equal(attached.cut, false);
  });

  it('cuts text over the limit and says so', () => {
    const attached = attachResource('s', 'x://big', [{ uri: 'x://big', text: 'y'.repeat(5000) }], 100);
    assert.equal(attached.cut, true);
    assert.equal(attached.totalChars, 5000);
    assert.match(attached.text, /\n\[cut: 5,000 characters, the first 100 shown\]\n<\/resource>$/);
    assert.equal(attached.text.split('y').length - 1, 100);
  });

  it('counts base64 bytes', () => {
    assert.equal(base64Bytes('AAAA'), 3);
    assert.equal(base64Bytes('AAA='), 2);
    assert.equal(base64Bytes('AA=='), 1);
  });
});
