// The New Judge Template starters: each validates with no error or warning and renders both rows
// of its sample dataset; names are checked before anything is written.
import * as assert from 'node:assert/strict';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import { strategyFor } from '../../src/core/judge/strategies/strategy';
import { freeName, nameProblem, starter, STARTERS } from '../../src/extension/authoring/model/starters';

describe('New Judge Template starters', () => {
  for (const { kind } of STARTERS) {
    it(`${kind} is valid, lint-clean and renders both sample rows`, () => {
      const s = starter(kind, 'my_metric');
      const found = validateTemplate(s.template);
      assert.deepEqual(found, [], found.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('\n'));
      const t = parseTemplate(s.template);
      assert.equal(t.config?.name, 'my_metric');
      const rows = s.dataset.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
      assert.equal(rows.length, 2);
      for (const row of rows) assert.equal(renderTemplate(t, row).ok, true);
    });
  }

  it('offers the six kinds the issue names, weighted criteria, and the judge-model formats', () => {
    assert.deepEqual(STARTERS.map((s) => s.kind), ['pointwise-1-5', 'pointwise-1-7', 'pointwise-1-10', 'pass-fail', 'criteria', 'pairwise', 'hhh', 'prometheus-absolute', 'prometheus-relative', 'glider']);
    assert.deepEqual(parseTemplate(starter('criteria', 'x').template).config?.criteria?.map((c) => c.weight), [0.6, 0.4]);
    assert.deepEqual(parseTemplate(starter('pass-fail', 'x').template).config?.scale, { min: 0, max: 1 });
    assert.deepEqual(parseTemplate(starter('pointwise-1-10', 'x').template).config?.scale, { min: 1, max: 10 });
  });

  it("reads each judge model's reply in its own format: Prometheus [RESULT] N and A/B, GLIDER <score>", () => {
    const read = (kind: 'prometheus-absolute' | 'prometheus-relative' | 'glider', reply: string) => strategyFor(parseTemplate(starter(kind, 'x').template).config!).parse!(reply);
    assert.deepEqual(read('prometheus-absolute', 'Feedback: Right, but no detail. [RESULT] 4'), { ok: true, value: { justification: 'Right, but no detail.', score: 4 } });
    assert.deepEqual(read('prometheus-relative', 'Feedback: B names the capital. [RESULT] B'), { ok: true, value: { justification: 'B names the capital.', winner: 'B', confidence: Number.NaN } });
    const glider = read('glider', '<reasoning>\n- names Sydney, which is wrong\n</reasoning>\n<highlight>\n["Sydney"]\n</highlight>\n<score>\n1\n</score>');
    assert.equal(glider.ok && glider.value.score, 1);
    assert.match(starter('prometheus-absolute', 'x').template, /###Task Description:[\s\S]*###The instruction to evaluate:[\s\S]*###Response to evaluate:[\s\S]*###Reference Answer \(Score 5\):[\s\S]*###Score Rubrics:\n\[[^\]]+\]\nScore 1: [\s\S]*Score 5: /);
  });

  it('rejects a metric name the front matter would reject', () => {
    assert.equal(nameProblem('helpfulness'), undefined);
    assert.match(nameProblem('Helpful-ness') ?? '', /lower case/);
    assert.match(nameProblem('') ?? '', /name/);
  });
});

describe('the metric name New Judge Template offers', () => {
  it('is the starter name when no template uses it, else the first free numbered one', () => {
    assert.equal(freeName('helpfulness', new Set(['preference'])), 'helpfulness');
    assert.equal(freeName('helpfulness', new Set(['helpfulness', 'helpfulness_2'])), 'helpfulness_3');
    assert.equal(nameProblem(freeName('helpfulness', new Set(['helpfulness']))), undefined, 'the offered name is valid');
  });
});
