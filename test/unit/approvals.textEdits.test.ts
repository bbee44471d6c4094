// edit_file's text semantics as server-filesystem applies them: edits in sequence, exact then
// whitespace-flexible matching with its re-indentation rules, CRLF normalization, the first failing edit.
import * as assert from 'node:assert/strict';
import { applyTextEdits, escapeInvalidUtf8, normalizeLineEndings } from '../../src/core/approvals/preview';

describe('edit_file text edits', () => {
  it('applies edits in sequence, each to the result of the one before', () => {
    const result = applyTextEdits('alpha\nbeta\ngamma\n', [
      { oldText: 'alpha', newText: 'ALPHA' },
      { oldText: 'ALPHA\nbeta', newText: 'one\ntwo' },
      { oldText: 'gamma\n', newText: '' },
    ]);
    assert.deepEqual(result, { ok: true, text: 'one\ntwo\n' });
  });

  it('replaces only the first exact occurrence, and inserts $ patterns literally', () => {
    assert.deepEqual(applyTextEdits('x = 1\nx = 1\n', [{ oldText: 'x = 1', newText: "y = '$&$1'" }]), { ok: true, text: "y = '$&$1'\nx = 1\n" });
  });

  it('an empty oldText matches at the start', () => {
    assert.deepEqual(applyTextEdits('body\n', [{ oldText: '', newText: 'head\n' }]), { ok: true, text: 'head\nbody\n' });
  });

  it('matches lines whatever their surrounding whitespace and gives the first new line the matched indentation', () => {
    const text = 'function f() {\n    const a = 1;   \n    return a;\n}\n';
    const result = applyTextEdits(text, [{ oldText: 'const a = 1;\nreturn a;', newText: 'const b = 2;\nreturn b;' }]);
    // Unindented new lines after the first are kept as written: only lines indented on both sides move.
    assert.deepEqual(result, { ok: true, text: 'function f() {\n    const b = 2;\nreturn b;\n}\n' });
  });

  it('re-indents later lines relative to the old line of the same index, in spaces', () => {
    const text = 'class A {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
    const result = applyTextEdits(text, [{
      oldText: 'if (x) {\n  return 1;\n}',
      newText: 'if (y) {\n      return 2;\n  }\n    extra();',
    }]);
    // Line 1: new indent 6, old indent 2 → the matched indent (a tab) + 4 spaces. Line 2: the old line has
    // no indentation, so the new line stays as written. Line 3 has no old counterpart: kept as written.
    assert.deepEqual(result, { ok: true, text: 'class A {\n\tif (y) {\n\t    return 2;\n  }\n    extra();\n}\n' });
  });

  it('loses nesting the way the server does when old and new lines share their indentation', () => {
    const text = 'function f() {\n    if (x) {\n        return 1;\n    }\n}\n';
    const result = applyTextEdits(text, [{ oldText: 'if (x) {\n    return 1;\n}', newText: 'if (y) {\n    return 2;\n}' }]);
    assert.deepEqual(result, { ok: true, text: 'function f() {\n    if (y) {\n    return 2;\n}\n}\n' });
  });

  it('normalizes CRLF in the edits, so a CRLF oldText matches the normalized file', () => {
    const text = normalizeLineEndings('one\r\ntwo\r\nthree\r\n');
    assert.equal(text, 'one\ntwo\nthree\n');
    assert.deepEqual(applyTextEdits(text, [{ oldText: 'one\r\ntwo', newText: '1\r\n2' }]), { ok: true, text: '1\n2\nthree\n' });
  });

  it('keeps a lone CR, which trimming ignores when matching', () => {
    assert.equal(normalizeLineEndings('a\rb\r\n'), 'a\rb\n');
    assert.deepEqual(applyTextEdits('x\r\ny\n', [{ oldText: 'x\ny', newText: 'z' }]), { ok: true, text: 'z\n' });
  });

  it('fails at the first edit that matches neither way, quoting it as given', () => {
    const result = applyTextEdits('a\nb\n', [{ oldText: 'a', newText: 'A' }, { oldText: 'missing\r\nline', newText: 'x' }, { oldText: 'b', newText: 'B' }]);
    assert.deepEqual(result, { ok: false, index: 1, error: 'Could not find exact match for edit:\nmissing\r\nline' });
  });

  it('does not match a run of lines longer than the file', () => {
    assert.equal(applyTextEdits('a', [{ oldText: ' a\nb', newText: 'x' }]).ok, false);
  });
});

describe('file text as the server reads it and as it is now', () => {
  it('escapes each byte that is not valid UTF-8, and leaves valid text (a BOM too) alone', () => {
    assert.equal(escapeInvalidUtf8(Buffer.from('\uFEFFcafé ✓ 😀\n')), '\uFEFFcafé ✓ 😀\n');
    assert.equal(escapeInvalidUtf8(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])), 'caf\\xE9\n');
    // Overlong forms, surrogates, a truncated sequence and bytes past U+10FFFF are not UTF-8.
    assert.equal(escapeInvalidUtf8(Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xe2, 0x82])), '\\xC0\\xAF\\xED\\xA0\\x80\\xF4\\x90\\x80\\x80\\xE2\\x82');
    assert.equal(escapeInvalidUtf8(Buffer.from([0xff, 0x41, 0xe2, 0x9c, 0x93])), '\\xFFA✓');
  });
});
