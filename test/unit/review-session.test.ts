// The review view's state without the editor: blind reveal, relabel then undo, pairwise mapping.
import * as assert from 'node:assert/strict';
import { fromShown, shownOrder } from '../../src/core/labels';
import { ReviewSession, type SessionSpec } from '../../src/extension/review/session';

const rows = [1, 2, 3].map((i) => ({ row: i, line: i, record: { _key: `${i}`.repeat(16), prompt: `p${i}`, response: `r${i}`, 'm/score': i + 2, 'm/confidence': 0.9 } }));
const spec = (o: Partial<SessionSpec> = {}): SessionSpec => ({
  file: '/r.jsonl', display: 'r.jsonl', metric: 'm', kind: 'pointwise', scale: { min: 1, max: 5 }, rows, fields: undefined, inputFields: undefined,
  pair: undefined, annotator: 'me', labelsFile: 'r.labels.jsonl', template: 't.judge', order: 'uncertain', seed: '1', blind: true, targetWidth: 0.2, ...o,
});

describe('review session', () => {
  it('hides the verdict until labelled, then shows the labelled row as previous with its agreement', () => {
    const s = new ReviewSession(spec(), []);
    assert.equal(s.view().item?.judge, null);
    const line = s.label('1111111111111111', 2, ' too short ');
    assert.deepEqual({ label: line?.label, comment: line?.comment }, { label: 2, comment: 'too short' });
    const v = s.view();
    assert.equal(v.item?.row, 2);
    assert.deepEqual(v.previous, { key: '1111111111111111', row: 1, mine: 2, verdict: '3', agree: false, canAddExample: true });
    assert.equal(v.agreement.n, 1);
    assert.equal(s.label('2222222222222222', 9, ''), undefined, 'a value off the scale is refused');
  });

  it('undoes a relabel by appending the label before it, and a first label by a retraction', () => {
    const s = new ReviewSession(spec(), []);
    s.label('1111111111111111', 3, '');
    s.move(-1);
    s.label('1111111111111111', 5, '');
    assert.equal(s.undo()?.label, 3);
    assert.equal(s.view().item?.mine, 3);
    assert.equal(s.undo()?.label, null);
    assert.equal(s.view().labelled, 0);
    assert.equal(s.undo(), undefined);
  });

  it('maps a pairwise choice made on the shown order back to the file order', () => {
    const pairRows = rows.map((r) => ({ ...r, record: { _key: r.record._key, prompt: 'p', response_a: 'a', response_b: 'b', 'm/pairwise_choice': 'A' } }));
    const s = new ReviewSession(spec({ kind: 'pairwise', scale: undefined, rows: pairRows, pair: ['response_a', 'response_b'] }), []);
    const item = s.view().item!;
    const shown = shownOrder('1', item.key);
    assert.equal(item.shown, shown);
    assert.equal(item.responses?.[0].value, shown === 'AB' ? 'a' : 'b');
    const line = s.label(item.key, 'A', '');
    assert.deepEqual({ label: line?.label, shown: line?.shown }, { label: fromShown('A', shown), shown });
  });
});
