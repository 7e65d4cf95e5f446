// The panel keys of the front matter: judges, min_judges, scoring and generator_field.
import * as assert from 'node:assert/strict';
import { parseTemplate } from '../../src/core/template/parse';
import { PAIRWISE, POINTWISE } from '../support/judgeFixtures';

const withModel = (base: string, yaml: string) => base.replace(/inputs: \[[^\]]*\]/, (m) => `${m}\n${yaml}`);

describe('panel keys in the front matter', () => {
  it('reads a panel with endpoints, a quorum, expected scoring and the generator field', () => {
    const t = parseTemplate(
      withModel(POINTWISE, 'generator_field: generator\nmodel:\n  scoring: expected\n  min_judges: 2\n  judges:\n    - model: llama3\n    - model: qwen2\n      endpoint: http://127.0.0.1:9/v1\n    - model: gpt-4o-mini\n      endpoint: openai'),
    );
    assert.deepEqual(t.diagnostics, []);
    assert.deepEqual(t.config?.model.judges, [{ model: 'llama3' }, { model: 'qwen2', endpoint: 'http://127.0.0.1:9/v1' }, { model: 'gpt-4o-mini', endpoint: 'openai' }]);
    assert.equal(t.config?.model.min_judges, 2);
    assert.equal(t.config?.model.scoring, 'expected');
    assert.equal(t.config?.generator_field, 'generator');
  });

  it('points at min_judges when it exceeds the panel, and at scoring on a pairwise template', () => {
    const t = parseTemplate(withModel(POINTWISE, 'model:\n  min_judges: 3\n  judges:\n    - model: a\n    - model: b'));
    const d = t.diagnostics.find((x) => x.code === 'front-matter-invalid');
    assert.match(d?.message ?? '', /`min_judges` \(3\) is more than the 2 judge\(s\) of the panel/);
    assert.equal(d?.line, 7);
    const p = parseTemplate(withModel(PAIRWISE, 'model:\n  scoring: expected'));
    assert.match(p.diagnostics[0]?.message ?? '', /a pairwise template has none/);
  });

  it('rejects a judge without a model and suggests the known keys', () => {
    const t = parseTemplate(withModel(POINTWISE, 'model:\n  judges:\n    - endpoint: http://x/v1'));
    assert.match(t.diagnostics[0]?.message ?? '', /judges\.0\.model/);
    const typo = parseTemplate(withModel(POINTWISE, 'model:\n  judgse: []'));
    assert.match(typo.diagnostics[0]?.message ?? '', /did you mean `judges`/);
  });
});
