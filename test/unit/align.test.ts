// The parts of align that need no server: the split, the paired figures, the held-out guard, the
// example blocks (pairwise in both orders), the provenance, the budget meter and the candidate list.
import * as assert from 'node:assert/strict';
import { HeldOutGuard, splitRows, type LabelledRow } from '../../src/core/align';
import { clarificationBullet, withClarification } from '../../src/core/align/author';
import { CallMeter } from '../../src/core/align/budget';
import { candidateSpecs } from '../../src/core/align/candidates';
import { pickExamples, withExamples } from '../../src/core/align/examples';
import { bestOf, comparePaired, isOverfit, partFigures } from '../../src/core/align/figures';
import { withAlignment } from '../../src/core/align/provenance';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import type { JudgeClient } from '../../src/core/judge/transport/types';
import { parseTemplate } from '../../src/core/template';
import { PAIRWISE, POINTWISE } from '../support/judgeFixtures';

function rows(labels: (number | string)[], text = (i: number) => `row ${i}`): LabelledRow[] {
  return labels.map((label, i) => ({ row: i + 1, line: i + 1, key: (i + 1).toString(16).padStart(16, '0'), record: { prompt: text(i), response: `answer ${i}` }, label }));
}

describe('align: the split', () => {
  const labelled = rows(Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 0 : 1)));

  it('holds out the share of every label, reproducibly from the seed', () => {
    const a = splitRows(labelled, 0.5, 7, 'm');
    const b = splitRows(labelled, 0.5, 7, 'm');
    assert.ok(a.ok && b.ok);
    assert.deepEqual(a.split.heldout.map((r) => r.key), b.split.heldout.map((r) => r.key));
    assert.equal(a.split.heldout.filter((r) => r.label === 0).length, 5);
    assert.equal(a.split.heldout.filter((r) => r.label === 1).length, 10);
    assert.equal(a.split.train.length + a.split.heldout.length, 30);
    const other = splitRows(labelled, 0.5, 8, 'm');
    assert.ok(other.ok);
    assert.notDeepEqual(other.split.heldout.map((r) => r.key), a.split.heldout.map((r) => r.key), 'another seed, another split');
  });

  it('does not depend on the order of the file: rows are identified by their key', () => {
    const a = splitRows(labelled, 0.3, 2, 'm');
    const b = splitRows([...labelled].reverse(), 0.3, 2, 'm');
    assert.ok(a.ok && b.ok);
    assert.deepEqual(new Set(a.split.heldout.map((r) => r.key)), new Set(b.split.heldout.map((r) => r.key)));
  });

  it('keeps two rows of a label on each side even at an extreme share', () => {
    const s = splitRows(labelled, 0.95, 1, 'm');
    assert.ok(s.ok);
    assert.equal(s.split.train.filter((r) => r.label === 0).length, 2);
  });

  it('says how many more rows to label when there are too few, or all share one label', () => {
    const few = splitRows(labelled.slice(0, 19), 0.5, 1, 'm');
    assert.ok(!few.ok);
    assert.match(few.error, /only 19 row\(s\).*label 1 more/);
    const one = splitRows(rows(Array.from({ length: 25 }, () => 1)), 0.5, 1, 'm');
    assert.ok(!one.ok);
    assert.match(one.error, /every labelled row has the label 1/);
  });
});

describe('align: figures', () => {
  const r = rows([1, 1, 1, 1, 0, 0, 0, 0, 1, 0]);
  const v = (labels: (number | undefined)[]) => new Map(r.map((row, i) => [row.key, { label: labels[i] }]));

  it('compares a candidate with the current template on the rows both judged', () => {
    const base = v([0, 0, 0, 1, 0, 0, 0, 0, 1, 0]); // 7/10
    const cand = v([1, 1, 1, 1, 0, 0, 0, 1, undefined, 0]); // 8/9 judged
    const p = comparePaired(r, base, cand, true);
    assert.equal(p.n, 9);
    assert.equal(p.delta, (8 - 6) / 9);
    assert.equal(p.mcnemarP, 0.625, 'b = 1, c = 3: 2·P(X ≤ 1 | n = 4)');
    assert.ok(p.ci && p.ci[0] <= p.delta! && p.delta! <= p.ci[1]);
    const f = partFigures('pointwise', r, cand);
    assert.equal(f.failed, 1);
    assert.equal(f.n, 9);
    assert.equal(f.accuracy, 8 / 9);
    assert.ok('quadratic_weighted_kappa' in f);
  });

  it('flags overfit when the train gain exceeds the held-out gain by more than the half-width', () => {
    assert.equal(isOverfit(0.3, { n: 10, delta: 0, ci: [-0.1, 0.1], mcnemarP: 1 }), true);
    assert.equal(isOverfit(0.05, { n: 10, delta: 0, ci: [-0.1, 0.1], mcnemarP: 1 }), false);
    assert.equal(isOverfit(null, { n: 10, delta: 0, ci: [-0.1, 0.1], mcnemarP: 1 }), null);
  });

  it('names as best only a finished candidate whose interval lies above 0, the largest gain first', () => {
    const c = (id: string, accuracy: number, lo: number, status = 'done') => ({ id, delta: { accuracy, ci: [lo, accuracy + 0.1] as [number, number] }, status });
    assert.equal(bestOf([c('a', 0.2, 0.01), c('b', 0.3, 0.05), c('c', 0.5, -0.1)]), 'b');
    assert.equal(bestOf([c('a', 0.2, 0), c('b', 0.4, 0.1, 'budget')]), null);
  });
});

describe('align: the held-out guard', () => {
  const held = rows([1, 0], (i) => (i === 0 ? 'The migratory patterns of the arctic tern span both polar regions every single year' : 'Short held-out answer text here'));
  const train = rows([1], () => 'Please answer the question below in one sentence and then stop writing');
  const guard = new HeldOutGuard(held, train, ['prompt', 'response'], ['A template line that says answer the question below in one sentence and then stop writing']);

  it('finds a run of eight words of a held-out field, whatever the case and punctuation', () => {
    const q = guard.quote('Consider how THE migratory patterns, of the arctic tern span both poles.');
    assert.equal(q?.field, 'prompt');
    assert.equal(q?.excerpt, 'the migratory patterns of the arctic tern span');
    assert.equal(guard.quote('The migratory patterns of the tern'), undefined, 'seven words are not a quote');
  });

  it('finds a whole short field, but not text the train rows or the template also hold', () => {
    assert.equal(guard.quote('like "short held-out answer text here" is fine')?.excerpt, 'short held out answer text here');
    assert.equal(guard.quote('Please answer the question below in one sentence and then stop writing.'), undefined);
  });

  it('counts each Han character as a word', () => {
    const cjk = rows([1], () => '北京是中华人民共和国的首都城市');
    const g = new HeldOutGuard(cjk, [], ['prompt']);
    assert.ok(g.quote('他说北京是中华人民共和国的首都'));
    assert.equal(g.quote('北京是中国'), undefined);
  });
});

describe('align: candidate texts', () => {
  it('shows a pairwise row in both orders, with the label swapped, and marks a drafted justification', () => {
    const row: LabelledRow = { row: 3, line: 3, key: 'abcdef0123456789', record: { prompt: 'Which is kinder?', response_a: 'Go away.', response_b: 'Happy to help!' }, label: 'B' };
    const out = withExamples(PAIRWISE, [{ row, justification: 'B helps.', drafted: { model: 'm--}}x' } }], ['prompt', 'response_a', 'response_b']);
    assert.ok(out.ok);
    assert.match(out.text, /Response a: Go away\.\nResponse b: Happy to help!\n\n```json\n\{"justification": "B helps\.", "winner": "B", "confidence": 1\}/);
    assert.match(out.text, /Response a: Happy to help!\nResponse b: Go away\.\n\n```json\n\{"justification": "B helps\.", "winner": "A", "confidence": 1\}/);
    assert.equal((out.text.match(/\{\{!-- justification drafted by m-- x \(no reviewer comment\); row abcdef0123456789 --\}\}/g) ?? []).length, 2);
    const judged = prepareJudge(out.text);
    assert.ok(judged.ok, 'the candidate validates');
    const rendered = judged.judge.render({ prompt: 'p', response_a: 'a', response_b: 'b' }, 'AB');
    assert.ok(rendered.ok);
    assert.doesNotMatch(rendered.prompt.messages.map((m) => m.content).join('\n'), /drafted by/, 'the judge never sees the mark');
  });

  it('picks examples across the kinds of error, the most frequent first', () => {
    const pool = rows([1, 1, 1, 0]).map((row, i) => ({ row, verdict: { label: i < 3 ? 0 : 1 } }));
    const picked = pickExamples(pool, 2, 1);
    assert.deepEqual(picked.map((d) => d.row.label).sort(), [0, 1]);
  });

  it('appends clarifications as bullets the rubric parser does not read as levels', () => {
    assert.equal(clarificationBullet('3 is for partly right {{x}}'), '- Note: 3 is for partly right \\{{x}}');
    assert.equal(clarificationBullet('A correct fact in one word is correct'), '- A correct fact in one word is correct');
    assert.equal(clarificationBullet('A: wins when shorter'), '- Note: A: wins when shorter');
    const out = withClarification(parseTemplate(POINTWISE), { section: 'rubric', clarifications: ['Short answers can be right.', '2 means mostly wrong,\nnot empty.'] });
    assert.ok(out.ok);
    assert.match(out.text, /- 5: Fully right\.\n\nClarifications drawn from labelled disagreements:\n\n- Short answers can be right\.\n- Note: 2 means mostly wrong, not empty\.\n\n# Evaluation steps/);
    const judged = prepareJudge(out.text);
    assert.ok(judged.ok);
    assert.deepEqual(parseTemplate(out.text).rubric.map((l) => l.score), parseTemplate(POINTWISE).rubric.map((l) => l.score));
  });

  it('records the provenance in front matter that still validates, leaving the other lines as written', () => {
    const text = withAlignment(POINTWISE, '0123456789ab', {
      candidate: 'examples4',
      kind: 'examples',
      seed: 3,
      split: { train: 10, heldout: 10 },
      examples: ['abcdef0123456789'],
      heldout: { n: 10, accuracy: 0.9, baseline_accuracy: 0.6, delta: 0.3, ci: [0.1, 0.5], mcnemar_p: 0.03125, overfit: false },
    });
    assert.ok(text.startsWith('---\nname: quality\nkind: pointwise\nscale: [1, 5]\ninputs: [prompt, response]\naligned_from: 0123456789ab\nalignment:\n'));
    assert.match(text, / {2}heldout: \{n: 10, accuracy: 0\.9, baseline_accuracy: 0\.6, delta: 0\.3, ci: \[0\.1, 0\.5\], mcnemar_p: 0\.03125, overfit: false\}\n---\n/);
    const judged = prepareJudge(text);
    assert.ok(judged.ok, judged.ok ? '' : JSON.stringify(judged.diagnostics));
    const again = withAlignment(text, 'ffffffffffff', { candidate: 'rubric', kind: 'rubric', seed: 1, split: { train: 1, heldout: 1 } });
    assert.equal((again.match(/^aligned_from:/gm) ?? []).length, 1, 'a later alignment replaces the earlier record');
    assert.match(again, /^aligned_from: ffffffffffff$/m);
  });

  it('offers examples, rubric, both, then fewer examples, up to the count asked', () => {
    assert.deepEqual(candidateSpecs(4, 3).map((s) => s.id), ['examples4', 'rubric', 'examples4-rubric']);
    assert.deepEqual(candidateSpecs(4, 9).map((s) => s.id), ['examples4', 'rubric', 'examples4-rubric', 'examples2', 'examples2-rubric']);
    assert.deepEqual(candidateSpecs(1, 9).map((s) => s.id), ['examples1', 'rubric', 'examples1-rubric']);
  });
});

describe('align: the budget meter', () => {
  it('refuses the request that would exceed the budget, before it is sent', async () => {
    let sent = 0;
    const inner: JudgeClient = { id: 'x', complete: async () => (sent++, { text: '{}', model: 'm' }) };
    const meter = new CallMeter(2);
    let told = 0;
    meter.onExhausted(() => told++);
    const c = meter.wrap(inner);
    await c.complete({ messages: [], model: 'm' });
    await c.complete({ messages: [], model: 'm' });
    await assert.rejects(c.complete({ messages: [], model: 'm' }), (e: Error & { kind?: string }) => e.kind === 'aborted' && /budget of 2/.test(e.message));
    await assert.rejects(c.complete({ messages: [], model: 'm' }));
    assert.equal(sent, 2);
    assert.equal(told, 1);
    assert.equal(meter.used, 2);
  });
});
