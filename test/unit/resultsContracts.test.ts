import * as assert from 'node:assert/strict';
import type { DatasetItem } from '../../src/core/dataset/types';
import { canonicalJson, keyFields, rowKey, templateHash } from '../../src/core/results/keys';
import { latestPerRow } from '../../src/core/results/latest';

describe('results contracts', () => {
  it('serialises canonical JSON as RFC 8785 does: sorted keys, ES numbers, no white space', () => {
    assert.equal(canonicalJson({ b: [1, 'x', { d: null, c: true }], a: 1e21, '\u20ac': 1, '\r': 2, '1': 3 }), '{"\\r":2,"1":3,"a":1e+21,"b":[1,"x",{"c":true,"d":null}],"€":1}');
    assert.equal(canonicalJson({ n: -0, f: 0.1 + 0.2, s: 'é\u2028' }), '{"f":0.30000000000000004,"n":0,"s":"é\u2028"}');
    assert.throws(() => canonicalJson({ x: Number.NaN }), /NaN/);
  });

  it('serialises a 100,000-deep value without overflowing the stack', () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(canonicalJson(deep).length, 200_002);
  });

  it('keys a row by its input fields only: stable across field order and other columns, different when an input changes', () => {
    const k = rowKey({ prompt: 'p', response: 'r', id: 1 }, ['prompt', 'response']);
    assert.match(k, /^[0-9a-f]{16}$/);
    assert.equal(rowKey({ response: 'r', other: 'x', prompt: 'p' }, ['response', 'prompt']), k);
    assert.notEqual(rowKey({ prompt: 'p', response: 'r2' }, ['prompt', 'response']), k);
    assert.deepEqual(keyFields({ config: { inputs: ['response', 'prompt'] } as never, placeholders: [] }), ['prompt', 'response']);
  });

  it('hashes the template text to 12 hex characters', () => {
    assert.match(templateHash('---\nname: x\n---'), /^[0-9a-f]{12}$/);
    assert.notEqual(templateHash('a'), templateHash('b'));
  });

  it('lets the last line per _row stand, passing lines without _row through', async () => {
    const items: DatasetItem[] = [
      { row: 1, line: 1, record: { _row: 1, v: 'first' } },
      { row: 2, line: 2, record: { _row: 2, v: 'failed' } },
      { row: 3, line: 3, record: { v: 'no row' } },
      { row: 4, line: 4, record: { _row: 2, v: 'retried' } },
    ];
    const seen: unknown[] = [];
    for await (const item of latestPerRow(() => items)) if ('record' in item) seen.push(item.record.v);
    assert.deepEqual(seen, ['first', 'no row', 'retried']);
  });
});
