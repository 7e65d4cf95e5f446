// The compare view's data without the editor: failed rows are counted per side, never silently
// left out of the figures, and a resumed run is offered once with its whole file in the picker.
import * as assert from 'node:assert/strict';
import { buildCompareView } from '../../src/extension/compare/model';
import { newestPerResults, type BatchEntry } from '../../src/extension/run/model/history';

const line = (row: number, score: number | null, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ prompt: `q${row}`, _row: row, 'm/score': score, ...(score === null ? { 'm/error': 'timed out', 'm/error_kind': 'timeout' } : {}), ...extra });

describe('compare view model', () => {
  it('counts the failed rows of each side and the rows found in one file only', async () => {
    const textA = [line(1, 3), line(2, 3), line(3, null), line(4, 3)].join('\n');
    const textB = [line(1, 4), line(2, null), line(3, null), line(4, 3), line(5, 2)].join('\n');
    const out = await buildCompareView({ a: 'a.jsonl', b: 'b.jsonl', textA, textB }, 'm');
    assert.ok(out.ok, out.ok ? '' : out.error);
    assert.equal(out.view.n, 2, 'rows 1 and 4 have a verdict on both sides');
    assert.deepEqual(out.view.failed, { a: 1, b: 2 });
    assert.deepEqual(out.view.noVerdict, { a: 0, b: 0 });
    assert.deepEqual(out.view.only, { a: 0, b: 1 });
  });
});

describe('run history picker', () => {
  const entry = (id: string, time: string, rows: number): BatchEntry => ({
    v: 1, type: 'batch', id, time, template: 't.judge', metric: 'm', kind: 'pointwise', model: 'x', dataset: 'd.jsonl', results: '.judge-studio/results/r.jsonl',
    resumed: id === 'resumed', interrupted: id === 'first', rows: { judged: rows, ok: rows, failed: 0, skipped: 0, alreadyDone: 0 },
    summary: { kind: 'pointwise', rows, failed: 0, scores: {}, mean: null }, elapsedMs: 1,
  });

  it('offers a results file once, by its newest run: the resumed one, whose summary is the whole file', () => {
    const refs = [
      { entry: entry('first', '2024-01-01T09:00:00.000Z', 66), results: 'file:///w/r.jsonl' },
      { entry: entry('other', '2024-01-01T10:00:00.000Z', 10), results: 'file:///w/other.jsonl' },
      { entry: entry('resumed', '2024-01-02T09:00:00.000Z', 400), results: 'file:///w/r.jsonl' },
    ];
    assert.deepEqual(newestPerResults(refs).map((r) => [r.entry.id, r.entry.summary.rows]), [['resumed', 400], ['other', 10]]);
  });
});
