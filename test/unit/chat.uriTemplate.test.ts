// Resource templates: variables, expansion and matching of the RFC 6570 forms MCP servers use.
import * as assert from 'node:assert/strict';
import { expandUriTemplate, isUriTemplate, matchUriTemplate, templateVariables } from '../../src/core/chat/uriTemplate';

describe('URI templates', () => {
  it('lists the variables once each, in order', () => {
    assert.deepEqual(templateVariables('demo://resource/dynamic/text/{resourceId}'), ['resourceId']);
    assert.deepEqual(templateVariables('repo://{owner}/{repo}/blob{/path*}{?ref,ref}'), ['owner', 'repo', 'path', 'ref']);
    assert.deepEqual(templateVariables('file:///plain.md'), []);
    assert.equal(isUriTemplate('file:///plain.md'), false);
    assert.equal(isUriTemplate('x://{a}'), true);
  });

  it('expands simple, reserved, path, label and query forms, encoding values', () => {
    assert.equal(expandUriTemplate('demo://text/{id}', { id: '7' }), 'demo://text/7');
    assert.equal(expandUriTemplate('demo://text/{id}', { id: 'a b/c' }), 'demo://text/a%20b%2Fc');
    assert.equal(expandUriTemplate('file://{+path}', { path: '/a b/c.md' }), 'file:///a%20b/c.md');
    assert.equal(expandUriTemplate('x://h{/seg}', { seg: 'p' }), 'x://h/p');
    assert.equal(expandUriTemplate('x://h/f{.ext}', { ext: 'md' }), 'x://h/f.md');
    assert.equal(expandUriTemplate('x://h/s{?q,lang}', { q: 'mcp', lang: 'en' }), 'x://h/s?q=mcp&lang=en');
    assert.equal(expandUriTemplate('x://h/s{?q,lang}', { q: 'mcp' }), 'x://h/s?q=mcp');
    assert.equal(expandUriTemplate('x://h/s{?q}', {}), 'x://h/s');
  });

  it('matches concrete URIs and gives back the values', () => {
    assert.deepEqual(matchUriTemplate('demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/text/42'), { resourceId: '42' });
    assert.deepEqual(matchUriTemplate('repo://{owner}/{repo}', 'repo://mcp/switch%20board'), { owner: 'mcp', repo: 'switch board' });
    assert.deepEqual(matchUriTemplate('file://{+path}', 'file:///a/b/c.md'), { path: '/a/b/c.md' });
    assert.deepEqual(matchUriTemplate('x://h/s{?q,lang}', 'x://h/s?q=mcp&lang=en'), { q: 'mcp', lang: 'en' });
    assert.deepEqual(matchUriTemplate('x://h/s{?q,lang}', 'x://h/s'), {});
  });

  it('refuses URIs that are not instances', () => {
    assert.equal(matchUriTemplate('demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/42'), undefined);
    assert.equal(matchUriTemplate('demo://text/{id}', 'demo://text/4/2'), undefined);
    assert.equal(matchUriTemplate('demo://text/{id}.md', 'demo://text/4.txt'), undefined);
  });

  it('round-trips: a match of an expansion gives the values back', () => {
    const template = 'weather://{country}/{city}{?units}';
    const values = { country: 'no', city: 'Tromsø', units: 'metric' };
    assert.deepEqual(matchUriTemplate(template, expandUriTemplate(template, values)), values);
  });
});
