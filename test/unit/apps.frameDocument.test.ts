// The app frame's document (src/core/apps/frameDocument.ts): the frame's policy is the first element of
// the head, before anything the app brings, whatever its HTML holds; no script carries a nonce; and the
// hashes the panel's policy lists are those of the app's inline scripts as the HTML standard reads them.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { frameDocument, scriptHash } from '../../src/core/apps';

const CSP = "default-src 'none'; script-src 'unsafe-inline'";
const POLICY_FIRST = `<html><head><meta http-equiv="Content-Security-Policy" content="${CSP}">`;
/** SHA-256 of a text, computed here rather than by the code under test. */
const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('frameDocument', () => {
  it('puts the policy first in the head, before the app\'s own policy, base and scripts, and no nonce on any script', async () => {
    const html = '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="img-src \'none\'"><base href="https://x.example/">'
      + '<script>var a = 1;</script></head><body><script src="https://cdn.example.com/x.js"></script><p>hi</p></body></html>';
    const out = (await frameDocument(html, CSP)).html;
    assert.ok(out.startsWith(`<!DOCTYPE html>${POLICY_FIRST}<meta http-equiv="Content-Security-Policy" content="img-src 'none'"><base`), out.slice(0, 200));
    assert.doesNotMatch(out, /nonce/);
    assert.match(out, /<script src="https:\/\/cdn.example.com\/x.js"><\/script><p>hi<\/p>/);
  });

  it('keeps the policy first whatever comes before it in the app\'s HTML', async () => {
    for (const prefix of ['<!--', '</head><body>', '<plaintext>', '<meta http-equiv="refresh" content="0;url=https://x.example/">', '<base href="https://x.example/">',
      '<script>', '<noscript><meta http-equiv="refresh" content="0">', '<html><head><title>', '\u0000<svg><script>x</script>', '<frameset>', '']) {
      // A comment may stay before <html> (it runs nothing); no element does.
      const out = (await frameDocument(`${prefix}<p>app</p>`, CSP)).html.replace(/^<!DOCTYPE html>(<!--[^]*?-->)*/, '');
      assert.ok(out.startsWith(POLICY_FIRST), `${JSON.stringify(prefix)} → ${out.slice(0, 160)}`);
    }
  });

  it('keeps the app\'s own doctype, and gives one to HTML without', async () => {
    assert.ok((await frameDocument('<!doctype html><p>x', CSP)).html.startsWith(`<!DOCTYPE html>${POLICY_FIRST}`));
    assert.ok((await frameDocument('<p>x', CSP)).html.startsWith(`<!DOCTYPE html>${POLICY_FIRST}`));
  });

  it('hashes each inline script\'s text as the HTML standard reads it, once, and no script that names a file', async () => {
    const html = [
      '<script>var a = 1;</script>',
      '<script type="module">import x from "./y"; x &lt; 2;</script>', // raw text: the entity stays as written
      '<script>line1\r\nline2</script>', // the parser turns CR LF into LF
      '<script>var a = 1;</script>', // the same text again
      '<script src="https://cdn.example.com/x.js">ignored()</script>',
      '<script type="importmap">{"imports":{}}</script>',
      '<svg><script>1 &lt; 2</script><script href="https://cdn.example.com/s.js">external()</script></svg>', // SVG: entities decoded; href names a file
      '<template><script>inTemplate()</script></template>', // not the document's until the app clones it
      '<script></script>',
    ].join('');
    assert.deepEqual((await frameDocument(html, CSP)).inlineScriptHashes, [
      sha('var a = 1;'), sha('import x from "./y"; x &lt; 2;'), sha('line1\nline2'), sha('{"imports":{}}'), sha('1 < 2'), sha(''),
    ]);
  });

  it('writes a document whose scripts read back the same (the hashes hold for the frame)', async () => {
    const html = '<script>if (a < b && c > d) { s = "</scr" + "ipt>"; }</script><svg><script>1 &lt; 2 &amp;&amp; x</script></svg><script><!--<script>x</script>y--></script>';
    const first = await frameDocument(html, CSP);
    assert.deepEqual((await frameDocument(first.html, CSP)).inlineScriptHashes, first.inlineScriptHashes);
    assert.equal(first.inlineScriptHashes.length, 3);
  });
});

describe('scriptHash', () => {
  it('is the CSP hash source of the UTF-8 bytes', () => {
    assert.equal(scriptHash(''), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    assert.equal(scriptHash('é'), sha('é'));
  });
});
