// MCP Apps in core: which tools and results name an app, which tools an app may call, the app's HTML
// in a resource read, and the frame's CSP built from what the resource declares — what is understood
// is allowed, the rest left out and named — with the panel's policy around it.
import * as assert from 'node:assert/strict';
import {
  APP_MIME_TYPE, appDocument, appMayCall, appPolicy, callAppUri, cspOrigin, cspText, panelDirectives, resultAppUri, scriptHash, toolAppUri,
} from '../../src/core/apps';

const NONCE = 'abcdefghijklmnop0123';
const HASH = scriptHash('window.app = 1;');
const directive = (policy: { directives: ReadonlyArray<readonly [string, readonly string[]]> }, name: string) =>
  policy.directives.find(([d]) => d === name)?.[1];

describe('toolAppUri / resultAppUri', () => {
  it('reads _meta.ui.resourceUri, then the older ui/resourceUri key', () => {
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'ui://get-time/app.html' } } }), 'ui://get-time/app.html');
    assert.equal(toolAppUri({ _meta: { 'ui/resourceUri': 'ui://old/app.html' } }), 'ui://old/app.html');
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'ui://new' }, 'ui/resourceUri': 'ui://old' } }), 'ui://new');
  });

  it('takes nothing but a ui:// address', () => {
    assert.equal(toolAppUri({}), undefined);
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'https://example.com/app.html' } } }), undefined);
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 'file:///etc/passwd' } } }), undefined);
    assert.equal(toolAppUri({ _meta: { ui: { resourceUri: 42 } } }), undefined);
    assert.equal(toolAppUri({ _meta: { ui: 'ui://x' } }), undefined);
  });

  it('finds the app a result names in its _meta, or embeds or links with the app MIME type', () => {
    assert.equal(resultAppUri({ content: [], _meta: { ui: { resourceUri: 'ui://r/meta' } } }), 'ui://r/meta');
    assert.equal(resultAppUri({ content: [{ type: 'resource', resource: { uri: 'ui://r/embedded', mimeType: APP_MIME_TYPE, text: '<p>' } }] }), 'ui://r/embedded');
    assert.equal(resultAppUri({ content: [{ type: 'resource_link', uri: 'ui://r/link', name: 'x', mimeType: 'text/html; profile=mcp-app' }] }), 'ui://r/link');
    // Plain HTML is not an app, and an app MIME type at another scheme is not either.
    assert.equal(resultAppUri({ content: [{ type: 'resource', resource: { uri: 'ui://r/plain', mimeType: 'text/html', text: '<p>' } }] }), undefined);
    assert.equal(resultAppUri({ content: [{ type: 'resource_link', uri: 'https://x/app', name: 'x', mimeType: APP_MIME_TYPE }] }), undefined);
  });

  it('prefers the result’s app to the tool’s', () => {
    const tool = { _meta: { ui: { resourceUri: 'ui://tool' } } };
    assert.equal(callAppUri(tool, { content: [], _meta: { ui: { resourceUri: 'ui://result' } } }), 'ui://result');
    assert.equal(callAppUri(tool, { content: [{ type: 'text', text: 'hi' }] }), 'ui://tool');
    assert.equal(callAppUri(tool), 'ui://tool');
    assert.equal(callAppUri({}, { content: [] }), undefined);
  });
});

describe('appMayCall', () => {
  it('lets an app call a tool whose visibility is absent or lists app', () => {
    assert.equal(appMayCall({}), true);
    assert.equal(appMayCall({ _meta: { ui: { resourceUri: 'ui://x' } } }), true);
    assert.equal(appMayCall({ _meta: { ui: { visibility: ['model', 'app'] } } }), true);
    assert.equal(appMayCall({ _meta: { ui: { visibility: ['app'] } } }), true);
  });

  it('refuses a model-only tool and a visibility it does not understand', () => {
    assert.equal(appMayCall({ _meta: { ui: { visibility: ['model'] } } }), false);
    assert.equal(appMayCall({ _meta: { ui: { visibility: 'app' } } }), false);
  });
});

describe('appDocument', () => {
  it('takes the app item of the read, as text or base64, with its declared _meta.ui', () => {
    const ui = { csp: { connectDomains: ['https://api.example.com'] } };
    const doc = appDocument('ui://a', { contents: [{ uri: 'ui://a', mimeType: APP_MIME_TYPE, text: '<p>hi</p>', _meta: { ui } }] });
    assert.deepEqual(doc, { uri: 'ui://a', html: '<p>hi</p>', declared: ui });
    const blob = Buffer.from('<p>é</p>').toString('base64');
    assert.equal(appDocument('ui://a', { contents: [{ uri: 'ui://a', mimeType: APP_MIME_TYPE, blob }] }).html, '<p>é</p>');
  });

  it('falls back to the listed resource’s _meta.ui', () => {
    const listed = { ui: { csp: { resourceDomains: ['https://cdn.example.com'] } } };
    assert.deepEqual(appDocument('ui://a', { contents: [{ uri: 'ui://a', mimeType: APP_MIME_TYPE, text: 'x' }] }, listed).declared, listed.ui);
  });

  it('refuses a read without the app, saying what it held', () => {
    assert.throws(() => appDocument('ui://a', { contents: [{ uri: 'ui://a', mimeType: 'text/html', text: '<p>' }] }), /not an app: expected text\/html;profile=mcp-app, the read returned ui:\/\/a \(text\/html\)/);
    assert.throws(() => appDocument('ui://a', { contents: [] }), /the read returned nothing/);
    assert.throws(() => appDocument('ui://a', { contents: [{ uri: 'ui://a', mimeType: APP_MIME_TYPE }] }), /neither text nor a blob/);
  });
});

describe('cspOrigin', () => {
  const schemes = ['https', 'wss', 'http', 'ws'];
  it('takes https and wss origins, with a port and *. subdomains', () => {
    assert.deepEqual(cspOrigin('https://api.example.com', schemes), { source: 'https://api.example.com' });
    assert.deepEqual(cspOrigin('WSS://Live.Example.com:8443/', schemes), { source: 'wss://live.example.com:8443' });
    assert.deepEqual(cspOrigin('https://*.example.com', schemes), { source: 'https://*.example.com' });
    assert.deepEqual(cspOrigin('http://localhost:3000', schemes), { source: 'http://localhost:3000' });
    assert.deepEqual(cspOrigin('ws://127.0.0.1:9', schemes), { source: 'ws://127.0.0.1:9' });
  });

  it('refuses keywords, bare schemes, wildcards, paths, injections and plain http off the loopback', () => {
    for (const value of ["'unsafe-eval'", "'self'", '*', 'https:', 'data:', 'https://*', 'https://*.com', 'https://example.com/path',
      'https://a.com; script-src *', 'http://example.com', 'javascript://x', 'https://exa mple.com', 'https://a.com:99999', 7]) {
      assert.ok('refused' in cspOrigin(value, schemes), `${String(value)} was taken`);
    }
    assert.ok('refused' in cspOrigin('wss://x.example.com', ['https', 'http']), 'wss where only https is allowed');
  });
});

describe('appPolicy', () => {
  it('allows nothing outside the frame when nothing is declared: inline scripts and styles, data: media', () => {
    const policy = appPolicy(undefined);
    assert.equal(cspText(policy.directives), [
      "default-src 'none'", "script-src 'unsafe-inline'", "style-src 'unsafe-inline'", 'img-src data:', 'font-src data:', 'media-src data:',
      "connect-src 'none'", "frame-src 'none'", "base-uri 'none'", "form-action 'none'", "object-src 'none'",
    ].join('; '));
    assert.deepEqual(appPolicy({}).directives, policy.directives);
    assert.deepEqual(appPolicy({ csp: {} }).directives, policy.directives);
    assert.deepEqual(policy.refused, []);
    assert.deepEqual(policy.permissionsAsked, []);
  });

  it('opens each directive only to the origins declared for it', () => {
    const policy = appPolicy({
      csp: {
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://cdn.example.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://cdn.example.com'],
      },
    });
    assert.deepEqual(directive(policy, 'connect-src'), ['https://api.example.com', 'wss://live.example.com']);
    assert.deepEqual(directive(policy, 'script-src'), ["'unsafe-inline'", 'https://cdn.example.com']);
    for (const d of ['style-src', 'img-src', 'font-src', 'media-src']) assert.ok(directive(policy, d)?.includes('https://cdn.example.com'), d);
    assert.deepEqual(directive(policy, 'frame-src'), ['https://www.youtube.com']);
    assert.deepEqual(directive(policy, 'base-uri'), ['https://cdn.example.com']);
    assert.deepEqual(directive(policy, 'default-src'), ["'none'"]);
    assert.deepEqual(policy.refused, []);
  });

  it('names no nonce, hash or strict-dynamic for scripts, whatever is declared: a script loads from a declared origin or not at all', () => {
    for (const declared of [undefined, { csp: { resourceDomains: ['https://cdn.example.com', "'nonce-abc'", "'sha256-x'", "'strict-dynamic'"] } }]) {
      const sources = directive(appPolicy(declared), 'script-src') ?? [];
      assert.deepEqual(sources.filter((s) => s.startsWith("'") && s !== "'unsafe-inline'"), [], JSON.stringify(sources));
      assert.ok(sources.every((s) => s === "'unsafe-inline'" || s === 'https://cdn.example.com'), JSON.stringify(sources));
    }
  });

  it('leaves out what it does not understand, names it, and stays as strict as declaring nothing', () => {
    const policy = appPolicy({
      csp: { connectDomains: ['*', "'unsafe-inline'", 'https://ok.example.com'], scriptDomains: ['https://x.com'], resourceDomains: 'https://cdn.example.com' },
      permissions: { camera: {}, telepathy: {} },
    });
    assert.deepEqual(directive(policy, 'connect-src'), ['https://ok.example.com']);
    assert.deepEqual(directive(policy, 'script-src'), ["'unsafe-inline'"]);
    assert.deepEqual(policy.refused, [
      'csp.connectDomains: "*" is not an origin (scheme://host[:port])',
      'csp.connectDomains: "\'unsafe-inline\'" is not an origin (scheme://host[:port])',
      'csp.scriptDomains is not a field this host understands',
      'csp.resourceDomains is not a list',
      'permissions.telepathy is not a permission this host understands',
    ]);
    assert.deepEqual(policy.permissionsAsked, ['camera', 'telepathy']);
    assert.match(appPolicy('everything').refused[0], /_meta.ui is not an object/);
  });
});

describe('panelDirectives', () => {
  const own = { scriptNonce: NONCE, inlineScriptHashes: [HASH], styleSources: ["'self'", 'https://*.vscode-cdn.net'] };

  it('admits the panel\'s script by nonce and the app\'s inline scripts by hash, never any inline script', () => {
    const panel = panelDirectives(appPolicy(undefined).directives, own);
    assert.equal(cspText(panel), [
      "default-src 'none'", `script-src 'nonce-${NONCE}' ${HASH}`, "style-src 'unsafe-inline' 'self' https://*.vscode-cdn.net", 'img-src data:', 'font-src data:',
      'media-src data:', "connect-src 'none'", "frame-src 'none'", "base-uri 'none'", "form-action 'none'", "object-src 'none'",
    ].join('; '));
  });

  it('keeps the declared origins and every other directive of the frame as they are', () => {
    const frame = appPolicy({ csp: { resourceDomains: ['https://cdn.example.com'], connectDomains: ['https://api.example.com'] } }).directives;
    const panel = panelDirectives(frame, { ...own, inlineScriptHashes: [HASH, HASH] });
    assert.deepEqual(panel.find(([d]) => d === 'script-src')?.[1], [`'nonce-${NONCE}'`, HASH, 'https://cdn.example.com']);
    assert.deepEqual(panel.filter(([d]) => d !== 'script-src' && d !== 'style-src'), frame.filter(([d]) => d !== 'script-src' && d !== 'style-src'));
    assert.deepEqual(cspText(panelDirectives(frame, { ...own, inlineScriptHashes: [] })).split('; ')[1], `script-src 'nonce-${NONCE}' https://cdn.example.com`);
  });

  it('refuses a nonce, hash or style source it does not understand', () => {
    const frame = appPolicy(undefined).directives;
    assert.throws(() => panelDirectives(frame, { ...own, scriptNonce: 'short' }), /nonce/);
    assert.throws(() => panelDirectives(frame, { ...own, scriptNonce: "abcdefghijklmnop' *" }), /nonce/);
    assert.throws(() => panelDirectives(frame, { ...own, inlineScriptHashes: ["'unsafe-inline'"] }), /not a sha256 hash source/);
    assert.throws(() => panelDirectives(frame, { ...own, inlineScriptHashes: ["'sha256-abc='"] }), /not a sha256 hash source/);
    assert.throws(() => panelDirectives(frame, { ...own, styleSources: ['https://x.com; script-src *'] }), /not 'self', a scheme or a host source/);
    assert.throws(() => panelDirectives(frame, { ...own, styleSources: ["'unsafe-eval'"] }), /not 'self', a scheme or a host source/);
  });
});
