import assert from 'node:assert/strict';
import { LineIndex } from '../../src/core/text';

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
