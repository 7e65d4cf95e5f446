import assert from 'node:assert/strict';
import { LineIndex, printable } from '../../src/core/text';

describe('LineIndex', () => {
  it('maps offsets to 1-based lines and columns across LF, CRLF and lone CR', () => {
    const index = new LineIndex('ab\ncd\r\nef\rgh');
    assert.deepEqual(index.position(0), { line: 1, column: 1 });
    assert.deepEqual(index.position(4), { line: 2, column: 2 });
    assert.deepEqual(index.position(7), { line: 3, column: 1 });
    assert.deepEqual(index.position(10), { line: 4, column: 1 });
    assert.equal(index.lineCount, 4);
  });

  it('puts an offset between the CR and LF of a line break at the end of that line', () => {
    const index = new LineIndex('ab\r\ncd');
    assert.deepEqual(index.position(3), index.position(2));
    assert.deepEqual(index.position(3), { line: 1, column: 3 });
  });

  it('round-trips offsets through line and column', () => {
    const text = 'x\r\ny\nz';
    const index = new LineIndex(text);
    for (const offset of [0, 1, 3, 4, 5, 6]) {
      const { line, column } = index.position(offset);
      assert.equal(index.offset(line, column), offset);
    }
  });
});

describe('printable', () => {
  it('escapes controls, DEL, C1, bidi overrides, separators and lone surrogates', () => {
    assert.equal(printable('a\nb\r\tc\0\u001b[31m\u007f\u0085\u202e\u2028\ud800'), 'a\\nb\\r\\tc\\0\\x1b[31m\\x7f\\x85\\u202e\\u2028\\ud800');
  });

  it('keeps letters, emoji (joined ones too) and ordinary punctuation', () => {
    assert.equal(printable('é 😀 👨‍👩‍👧 "q" <b>'), 'é 😀 👨‍👩‍👧 "q" <b>');
  });

  it('cuts after max characters with a marker counting what was left out', () => {
    assert.equal(printable('abcdefghij', 4), 'abcd… [6 more characters]');
    assert.equal(printable('abcd', 4), 'abcd');
  });

  it('looks only at the head of a huge text', () => {
    // A cons string is flattened by any scan; if printable walked the whole text, this would
    // take seconds. Timed with a generous bound, so a busy machine does not fail it.
    const huge = 'x'.repeat(50_000_000);
    const started = performance.now();
    for (let i = 0; i < 100; i++) assert.equal(printable(huge, 10), 'xxxxxxxxxx… [49,999,990 more characters]');
    const ms = performance.now() - started;
    assert.ok(ms < 1000, `100 calls took ${ms.toFixed(0)} ms`);
  });
});
