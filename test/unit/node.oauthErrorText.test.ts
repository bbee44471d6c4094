// What an authorization server wrote reaches a sign-in error as text: no terminal escape (which makes
// a hyperlink in a terminal), no bidi override or zero-width character, no error_uri, and no more of it
// than a sentence carries. The notification's own pass (plainText) then breaks link syntax.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { describeOAuthError, OAUTH_TEXT_MAX_CHARS, oauthRefusal, oauthServerText } from '../../src/node/auth/oauthErrorText';
import { listenForRedirect, RedirectError } from '../../src/node/auth/redirectListener';
import { OAuthError } from '../../src/node/sdk';
import { hasHiddenCharacters } from '../../src/protocol/visibleText';
import { plainText } from '../../src/vscode/ui/plainText';

// A terminal hyperlink (OSC 8) around "Sign in again", then text reversed by a bidi override.
const HOSTILE = '\u001b]8;;https://evil.example/\u001b\\Sign in again\u001b]8;;\u001b\\ \u202Eevil\u202C [here](command:x) \u200B';

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => http.get(url, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject));
}

describe('OAuth: an authorization server\'s text in sign-in errors', () => {
  it('escapes controls, bidi overrides and zero-width characters, and keeps the words', () => {
    const shown = oauthServerText(HOSTILE);
    assert.equal(shown, '\\u{1B}]8;;https://evil.example/\\u{1B}\\Sign in again\\u{1B}]8;;\\u{1B}\\ \\u{202E}evil\\u{202C} [here](command:x) \\u{200B}');
    assert.ok(!hasHiddenCharacters(shown));
    assert.doesNotMatch(plainText(shown), /\]\(/, 'and the notification breaks the link syntax');
  });

  it('cuts a long body and says so', () => {
    const shown = oauthServerText(`<html>${'x'.repeat(5000)}</html>`);
    assert.equal(shown.length, OAUTH_TEXT_MAX_CHARS + '… (cut)'.length);
    assert.ok(shown.endsWith('… (cut)'));
  });

  it('describes the SDK\'s OAuthError by its code and description, never its error_uri; other errors are not its business', () => {
    const error = new OAuthError('invalid_grant', `refresh token revoked ${HOSTILE}`, 'https://evil.example/help');
    const described = describeOAuthError(error, 'https://mcp.example.com/mcp') ?? '';
    assert.match(described, /^the sign-in to https:\/\/mcp\.example\.com\/mcp: the authorization server answered invalid_grant \(refresh token revoked \\u\{1B\}\]8;;/);
    assert.ok(!hasHiddenCharacters(described));
    assert.doesNotMatch(described, /evil\.example\/help/);
    assert.equal(describeOAuthError(new Error('ECONNREFUSED'), 'x'), undefined);
    assert.equal(oauthRefusal('access_denied'), 'access_denied');
  });

  it('the redirect listener repeats a refused sign-in\'s error_description as text', async () => {
    const listener = await listenForRedirect({ state: 'st', port: 0, timeoutMs: 5000 });
    const query = new URLSearchParams({ error: 'access_denied\u202E', error_description: HOSTILE, state: 'st' });
    assert.equal(await get(`${listener.redirectUri}?${query}`), 400);
    await assert.rejects(listener.response, (error: unknown) => {
      assert.ok(error instanceof RedirectError);
      assert.equal(error.message, `the authorization server refused the sign-in: access_denied\\u{202E} (${oauthServerText(HOSTILE)})`);
      assert.ok(!hasHiddenCharacters(error.message));
      return true;
    });
  });
});
