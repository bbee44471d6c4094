// The notification of a call waiting for approval: its Approve sends the call's arguments, so it shows
// every one of them (hidden characters escaped as the card escapes them), measured as VS Code will show
// the message; arguments that do not fit leave only Show the card.
import * as assert from 'node:assert/strict';
import { approvalNotice, NOTIFICATION_MAX_CHARS, noticeArguments, SHOW_THE_CARD } from '../../src/core/approvals';
import { plainText } from '../../src/vscode/ui/plainText';

const call = (args: Record<string, unknown>, tool = 'write_file') => ({ serverName: 'fs', tool, reason: 'it writes files', args });

describe('the notification of a waiting call', () => {
  it('shows every argument and offers Approve, Reject and Show the card when they fit', () => {
    const notice = approvalNotice(call({ path: '/ws/a.txt', content: 'hello\n' }), plainText);
    assert.equal(notice.message, '"fs" wants to run write_file: it writes files. Arguments: {"path":"/ws/a.txt","content":"hello\\n"}');
    assert.deepEqual(notice.choices, ['Approve', 'Reject', SHOW_THE_CARD]);
  });

  it('says so for a call without arguments', () => {
    const notice = approvalNotice(call({}), plainText);
    assert.equal(notice.message, '"fs" wants to run write_file: it writes files. It has no arguments.');
    assert.deepEqual(notice.choices, ['Approve', 'Reject', SHOW_THE_CARD]);
  });

  it('escapes invisible and direction-changing characters in the arguments and the server\'s words, as the card does', () => {
    const notice = approvalNotice(call({ path: 'a\u202Etxt.exe', note: 'x\u200By\u2028z\u{E0041}' }, 'write\u200Bfile'), plainText);
    assert.equal(notice.message, '"fs" wants to run write\\u{200B}file: it writes files. Arguments: {"path":"a\\u{202E}txt.exe","note":"x\\u{200B}y\\u{2028}z\\u{E0041}"}');
    assert.doesNotMatch(notice.message, /[\u200B\u202E\u2028]|\u{E0041}/u);
    assert.equal(noticeArguments({ a: '\u202E' }), '{"a":"\\u{202E}"}');
  });

  it('offers only Show the card, without the arguments, when they do not fit in a notification', () => {
    const notice = approvalNotice(call({ path: '/ws/a.txt', content: 'x'.repeat(NOTIFICATION_MAX_CHARS) }), plainText);
    assert.deepEqual(notice.choices, [SHOW_THE_CARD]);
    assert.match(notice.message, /^"fs" wants to run write_file: it writes files\. Its arguments \(\d+ characters\) do not fit in a notification: the card shows them, and approves them there\.$/);
    assert.ok(notice.message.length <= NOTIFICATION_MAX_CHARS);
  });

  it('decides by the length of the message as shown: exactly the limit fits, one more character does not', () => {
    const head = '"fs" wants to run write_file: it writes files. Arguments: {"content":"';
    const fitting = 'x'.repeat(NOTIFICATION_MAX_CHARS - head.length - 2);
    assert.equal(approvalNotice(call({ content: fitting })).message.length, NOTIFICATION_MAX_CHARS);
    assert.deepEqual(approvalNotice(call({ content: fitting })).choices, ['Approve', 'Reject', SHOW_THE_CARD]);
    assert.deepEqual(approvalNotice(call({ content: `${fitting}x` })).choices, [SHOW_THE_CARD]);
    // plainText breaks each link with a space: arguments that fit raw may not fit as shown.
    const links = '[a](b)'.repeat(Math.floor((NOTIFICATION_MAX_CHARS - head.length - 2) / 6));
    assert.deepEqual(approvalNotice(call({ content: links })).choices, ['Approve', 'Reject', SHOW_THE_CARD]);
    assert.deepEqual(approvalNotice(call({ content: links }), plainText).choices, [SHOW_THE_CARD]);
  });
});
