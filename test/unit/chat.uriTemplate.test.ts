// Resource templates: variables, expansion and matching of the RFC 6570 forms MCP servers use, through
// the SDK's UriTemplate in the shapes the mentions need.
import * as assert from 'node:assert/strict';
import { expandTemplate, matchTemplate, templateVariables } from '../../src/core/chat/resolveMention';

describe('URI templates', () => {
  it('lists the variables once each, in order', () => {
    assert.deepEqual(templateVariables('demo://resource/dynamic/text/{resourceId}'), ['resourceId']);
    assert.deepEqual(templateVariables('repo://{owner}/{repo}/blob{/path*}{?ref,ref}'), ['owner', 'repo', 'path', 'ref']);
    assert.deepEqual(templateVariables('file:///plain.md'), []);
    assert.deepEqual(templateVariables('x://{unclosed'), []);
  });

  it('expands simple, reserved, path, label and query forms, encoding values', () => {
    assert.equal(expandTemplate('demo://text/{id}', { id: '7' }), 'demo://text/7');
    assert.equal(expandTemplate('demo://text/{id}', { id: 'a b/c' }), 'demo://text/a%20b%2Fc');
    assert.equal(expandTemplate('file://{+path}', { path: '/a b/c.md' }), 'file:///a%20b/c.md');
    assert.equal(expandTemplate('x://h{/seg}', { seg: 'p' }), 'x://h/p');
    assert.equal(expandTemplate('x://h/f{.ext}', { ext: 'md' }), 'x://h/f.md');
    assert.equal(expandTemplate('x://h/s{?q,lang}', { q: 'mcp', lang: 'en' }), 'x://h/s?q=mcp&lang=en');
    assert.equal(expandTemplate('x://h/s{?q,lang}', { q: 'mcp' }), 'x://h/s?q=mcp');
    assert.equal(expandTemplate('x://h/s{?q}', {}), 'x://h/s');
  });

  it('matches concrete URIs and gives back the values', () => {
    assert.deepEqual(matchTemplate('demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/text/42'), { resourceId: '42' });
    assert.deepEqual(matchTemplate('repo://{owner}/{repo}', 'repo://mcp/switch%20board'), { owner: 'mcp', repo: 'switch board' });
    assert.deepEqual(matchTemplate('file://{+path}', 'file:///a/b/c.md'), { path: '/a/b/c.md' });
    assert.deepEqual(matchTemplate('x://h/s{?q,lang}', 'x://h/s?q=mcp&lang=en'), { q: 'mcp', lang: 'en' });
  });

  it('refuses URIs that are not instances', () => {
    assert.equal(matchTemplate('demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/42'), undefined);
    assert.equal(matchTemplate('demo://text/{id}', 'demo://text/4/2'), undefined);
    assert.equal(matchTemplate('demo://text/{id}.md', 'demo://text/4.txt'), undefined);
    // The SDK takes a query expression's variables as all part of the URI: leaving any out is no instance.
    assert.equal(matchTemplate('x://h/s{?q,lang}', 'x://h/s'), undefined);
    assert.equal(matchTemplate('x://h/s{?q,lang}', 'x://h/s?q=mcp'), undefined);
    assert.equal(matchTemplate('x://{unclosed', 'x://a'), undefined);
  });

  it('round-trips: a match of an expansion gives the values back', () => {
    const template = 'weather://{country}/{city}{?units}';
    const values = { country: 'no', city: 'Tromsø', units: 'metric' };
    assert.deepEqual(matchTemplate(template, expandTemplate(template, values)), values);
  });
});
