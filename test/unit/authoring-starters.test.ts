// The New Judge Template starters: each validates with no error or warning and renders both rows
// of its sample dataset; names are checked before anything is written.
import * as assert from 'node:assert/strict';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import { nameProblem, starter, STARTERS } from '../../src/extension/authoring/model/starters';

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

  it('offers the six kinds the issue names, and weighted criteria', () => {
    assert.deepEqual(STARTERS.map((s) => s.kind), ['pointwise-1-5', 'pointwise-1-7', 'pointwise-1-10', 'pass-fail', 'criteria', 'pairwise', 'hhh']);
    assert.deepEqual(parseTemplate(starter('criteria', 'x').template).config?.criteria?.map((c) => c.weight), [0.6, 0.4]);
    assert.deepEqual(parseTemplate(starter('pass-fail', 'x').template).config?.scale, { min: 0, max: 1 });
    assert.deepEqual(parseTemplate(starter('pointwise-1-10', 'x').template).config?.scale, { min: 1, max: 10 });
  });

  it('rejects a metric name the front matter would reject', () => {
    assert.equal(nameProblem('helpfulness'), undefined);
    assert.match(nameProblem('Helpful-ness') ?? '', /lower case/);
    assert.match(nameProblem('') ?? '', /name/);
  });
});
