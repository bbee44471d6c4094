// The app frame's document (webview/app/frameDocument.ts): the frame's policy is the first element of
// the head, before anything the app brings, and the app's own scripts carry the policy's nonce.
import * as assert from 'node:assert/strict';
import { useDom } from './dom';

describe('webview app frame document', () => {
  useDom();

  it('puts the policy first in the head and the nonce on every script', async () => {
    const { frameDocument } = await import('../../../webview/app/frameDocument');
    const html = '<html><head><script>var a = 1;</script><title>t</title></head><body><script src="https://cdn.example.com/x.js"></script><p>hi</p></body></html>';
    const out = frameDocument(html, "default-src 'none'", 'NONCE123456789012');
    const doc = new DOMParser().parseFromString(out, 'text/html');
    const first = doc.head.firstElementChild;
    assert.equal(first?.tagName, 'META');
    assert.equal(first?.getAttribute('http-equiv'), 'Content-Security-Policy');
    assert.equal(first?.getAttribute('content'), "default-src 'none'");
    const scripts = Array.from(doc.querySelectorAll('script'));
    assert.equal(scripts.length, 2);
    for (const script of scripts) assert.equal(script.getAttribute('nonce'), 'NONCE123456789012');
    assert.ok(out.startsWith('<!DOCTYPE html>'));
    assert.match(out, /<p>hi<\/p>/);
  });

  it('keeps a policy the app brings (policies only add up) and gives a fragment a head', async () => {
    const { frameDocument } = await import('../../../webview/app/frameDocument');
    const out = frameDocument('<meta http-equiv="Content-Security-Policy" content="img-src \'none\'"><b>x</b>', "connect-src 'none'", 'NONCE123456789012');
    const doc = new DOMParser().parseFromString(out, 'text/html');
    const policies = Array.from(doc.querySelectorAll('meta[http-equiv="Content-Security-Policy"]')).map((m) => m.getAttribute('content'));
    assert.deepEqual(policies, ["connect-src 'none'", "img-src 'none'"]);
  });
});
