// `calibrate --swap-rule` on stored passes, line by line: the shapes a results line has after a run
// under either rule (one order failed, several samples, a transport failure), and `--by` groups.
import * as assert from 'node:assert/strict';
import { calibrate } from '../../src/core/calibration';
import { reaggregate } from '../../src/core/calibration/swapRule';
import type { DatasetItem } from '../../src/core/dataset/types';

const line = (columns: Record<string, unknown>) => Object.fromEntries(Object.entries(columns).map(([k, v]) => [k.startsWith('_') ? k : `m/${k}`, v]));
const choice = (r: Record<string, unknown>) => r['m/pairwise_choice'];

describe('re-aggregating stored passes under a swap rule', () => {
  it('gives A for A and TIE under votes, and TIE under consistent', () => {
    const r = line({ pairwise_choice: 'TIE', passes: [{ order: 'AB', winner: 'A' }, { order: 'BA', winner: 'TIE' }] });
    assert.equal(choice(reaggregate(r, 'm', 'votes')), 'A');
    assert.equal(choice(reaggregate(r, 'm', 'consistent')), 'TIE');
  });

  it('judges a row whose other order failed under votes, and keeps it failed under consistent', () => {
    // What a run under `consistent` stores: the error, and only the pass that finished.
    const r = line({ pairwise_choice: null, error: 'AB pass: invalid reply', error_kind: 'ambiguous-verdict', passes: [{ order: 'BA', winner: 'B' }] });
    const votes = reaggregate(r, 'm', 'votes');
    assert.equal(choice(votes), 'B');
    assert.equal(votes['m/error'], null);
    const consistent = reaggregate(r, 'm', 'consistent');
    assert.equal(choice(consistent), null);
    assert.equal(consistent['m/error'], 'AB pass: invalid reply');
  });

  it('makes no order readable a TIE under votes, but leaves a transport failure failed', () => {
    const unreadable = line({ pairwise_choice: null, error: 'x', error_kind: 'invalid-reply', passes: [] });
    assert.equal(choice(reaggregate(unreadable, 'm', 'votes')), 'TIE');
    const network = line({ pairwise_choice: null, error: 'x', error_kind: 'network', passes: [] });
    assert.equal(reaggregate(network, 'm', 'votes'), network);
    // A pass a votes run listed as failed for a network error, with the other order answered.
    const listed = line({ pairwise_choice: 'A', passes: [{ order: 'AB', winner: 'A' }, { order: 'BA', winner: null, error_kind: 'network' }] });
    assert.equal(choice(reaggregate(listed, 'm', 'votes')), 'A');
    assert.equal(choice(reaggregate(listed, 'm', 'consistent')), null);
  });

  it('aggregates per sample, then takes the majority of the samples', () => {
    const passes = [
      { sample: 1, order: 'AB', winner: 'A' }, { sample: 1, order: 'BA', winner: 'TIE' },
      { sample: 2, order: 'AB', winner: 'A' }, { sample: 2, order: 'BA', winner: 'B' },
      { sample: 3, order: 'AB', winner: 'A' }, { sample: 3, order: 'BA', winner: 'A' },
    ];
    const r = line({ pairwise_choice: 'A', passes });
    // votes: A, TIE, A → A; consistent: TIE, TIE, A → TIE.
    assert.equal(choice(reaggregate(r, 'm', 'votes')), 'A');
    assert.equal(choice(reaggregate(r, 'm', 'consistent')), 'TIE');
  });

  it('leaves a line without stored passes as it is (pointwise, or a row that never rendered)', () => {
    const r = line({ score: 4 });
    assert.equal(reaggregate(r, 'm', 'votes'), r);
  });
});

describe('calibrate by a column', () => {
  const items = (rows: Record<string, unknown>[]): DatasetItem[] => rows.map((record, i) => ({ row: i + 1, line: i + 1, record }));

  it('reports each value of the column with its own figures, numbers as text and missing values as (none)', async () => {
    const rows = [
      { level: 1, 'm/human_pairwise_choice': 'A', 'm/pairwise_choice': 'A' },
      { level: 1, 'm/human_pairwise_choice': 'B', 'm/pairwise_choice': 'A' },
      { level: 2, 'm/human_pairwise_choice': 'B', 'm/pairwise_choice': 'B' },
      { 'm/human_pairwise_choice': 'A', 'm/pairwise_choice': 'B' },
    ];
    const outcome = await calibrate(items(rows), 'm', { by: 'level' });
    assert.ok(outcome.ok);
    assert.equal(outcome.report.accuracy, 0.5);
    const by = outcome.by!;
    // (JavaScript lists integer-like keys first, so the JSON does too.)
    assert.deepEqual(Object.keys(by), ['1', '2', '(none)']);
    assert.deepEqual(Object.values(by).map((g) => [g.n, 'accuracy' in g ? g.accuracy : undefined]), [[2, 0.5], [1, 1], [1, 0]]);
  });

  it('says so when the column holds more values than a grouping has', async () => {
    const rows = Array.from({ length: 201 }, (_, i) => ({ id: `r${i}`, 'm/human_pairwise_choice': 'A', 'm/pairwise_choice': 'A' }));
    const outcome = await calibrate(items(rows), 'm', { by: 'id' });
    assert.ok(!outcome.ok);
    assert.match(outcome.error, /more than 200 values/);
  });
});
