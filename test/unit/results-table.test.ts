import * as assert from 'node:assert/strict';
import { parseDataset } from '../../src/core/dataset';
import { metricsOf, ResultsTable } from '../../src/extension/results/model/table';
import type { ResultsQuery } from '../../src/protocol/results';

const M = 'pref';
const lines = [
  { prompt: 'p3', _row: 3, [`${M}/pairwise_choice`]: 'B', [`${M}/position_consistent`]: false, [`${M}/human_pairwise_choice`]: 'A', [`${M}/justification`]: 'B is longer' },
  { prompt: 'p1', _row: 1, [`${M}/pairwise_choice`]: 'A', [`${M}/position_consistent`]: true, [`${M}/confidence`]: 0.9, [`${M}/human_pairwise_choice`]: 'BASELINE' },
  { prompt: 'p2', _row: 2, [`${M}/pairwise_choice`]: null, [`${M}/error`]: 'timed out', [`${M}/error_kind`]: 'timeout' },
  { prompt: 'p1', _row: 1, [`${M}/pairwise_choice`]: 'TIE', [`${M}/position_consistent`]: true, [`${M}/confidence`]: 0.5, [`${M}/human_pairwise_choice`]: 'A', [`${M}/rule_violations`]: ['x', 'y'] },
];
const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n';
const table = () => new ResultsTable(parseDataset(text, 'jsonl'), M, [M]);
const q = (over: Partial<ResultsQuery>): ResultsQuery => ({ id: 1, filter: 'all', verdict: null, search: '', sort: 'row', descending: false, offset: 0, limit: 100, ...over });

describe('results viewer table', () => {
  it('keeps one row per _row, the last line standing, in _row order', () => {
    const { rows, total } = table().query(q({}));
    assert.equal(total, 3);
    assert.deepEqual(rows.map((r) => [r.row, r.verdict, r.violations]), [[1, 'TIE', 2], [2, null, 0], [3, 'B', 0]]);
  });

  it('summarises verdicts, failures by kind, inconsistency and disagreement', () => {
    const s = table().summary('r.jsonl');
    assert.equal(s.kind, 'pairwise');
    assert.deepEqual(s.verdicts, [{ label: 'B', count: 1 }, { label: 'TIE', count: 1 }]);
    assert.deepEqual(s.failures, [{ kind: 'timeout', count: 1 }]);
    assert.deepEqual([s.inconsistent, s.labelled, s.disagreeing, s.unreadable, s.replaced], [1, 2, 2, 1, 1]);
  });

  it('filters failed, inconsistent and disagreeing rows, and by verdict', () => {
    const t = table();
    assert.deepEqual(t.query(q({ filter: 'failed' })).rows.map((r) => r.row), [2]);
    assert.deepEqual(t.query(q({ filter: 'inconsistent' })).rows.map((r) => r.row), [3]);
    assert.deepEqual(t.query(q({ filter: 'disagree' })).rows.map((r) => r.row), [1, 3]);
    assert.deepEqual(t.query(q({ verdict: 'B' })).rows.map((r) => r.row), [3]);
  });

  it('searches inputs and justifications case-insensitively, sorts with nulls last, and returns a window', () => {
    const t = table();
    assert.deepEqual(t.query(q({ search: 'LONGER' })).rows.map((r) => r.row), [3]);
    assert.deepEqual(t.query(q({ sort: 'confidence' })).rows.map((r) => r.row), [1, 2, 3]);
    assert.deepEqual(t.query(q({ sort: 'verdict', descending: true })).rows.map((r) => r.row), [1, 3, 2]);
    const window = t.query(q({ offset: 1, limit: 1 }));
    assert.deepEqual([window.total, window.rows.map((r) => r.row)], [3, [2]]);
  });

  it('answers a query on 100,000 rows quickly', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => JSON.stringify({ prompt: `q${i}`, _row: i + 1, 'm/score': 1 + (i % 5), 'm/justification': `because ${i}` })).join('\n');
    const items = parseDataset(many, 'jsonl');
    const t = new ResultsTable(items, 'm', metricsOf(items.flatMap((i) => ('record' in i ? [i.record] : []))));
    const started = performance.now();
    const r = t.query(q({ search: 'because 9999', sort: 'verdict', descending: true }));
    const ms = performance.now() - started;
    assert.equal(r.total, 11);
    assert.ok(ms < 500, `query took ${ms.toFixed(0)} ms`);
  });
});
