// Multi-criterion pointwise templates: the front matter's criteria, a `## criterion` rubric each,
// and every criterion diagnostic where it fires (at the marked text) and where it must not.
import * as assert from 'node:assert/strict';
import { parseTemplate, validateTemplate } from '../../src/core/template';
import { criterionRubrics, normalisedWeights } from '../../src/core/template/criteria';
import { edit, expectNone, expectOne, withCode } from './template.fixtures.test';

/** A clean two-criterion template on a 1–3 scale; tests edit it to trigger one code. */
export const CRITERIA = `---
name: quality
kind: pointwise
scale: [1, 3]
criteria:
  - name: accuracy
    description: Claims are true.
    weight: 0.7
  - name: clarity
    description: Easy to follow.
    weight: 0.3
---
# Criteria

Accuracy and clarity.

# Rubric

## Accuracy

- 3: Every claim is true.
- 2: One wrong detail.
- 1: The main claim is wrong.

## clarity

- 3: Plain and ordered.
- 2: Needs a second reading.
- 1: Cannot be followed.

# Evaluation steps

Score each criterion with evidence, then summarise.

# Examples

\`\`\`json
{"criteria": {"accuracy": {"evidence": ["x"], "justification": "y", "score": 3, "improvement": "z"}, "clarity": {"evidence": [], "justification": "y", "score": 2, "improvement": "z"}}, "summary": "ok"}
\`\`\`

# Task

{{prompt}}

<response>{{response}}</response>
`;

describe('multi-criterion templates', () => {
  it('parses the criteria and the rubric of each, a heading in words naming the criterion', () => {
    const t = parseTemplate(CRITERIA);
    assert.deepEqual(t.config?.criteria?.map((c) => [c.name, c.weight]), [['accuracy', 0.7], ['clarity', 0.3]]);
    const rubrics = criterionRubrics(t);
    assert.deepEqual(rubrics.map((r) => [r.key, r.points.map((p) => p.score)]), [['accuracy', [3, 2, 1]], ['clarity', [3, 2, 1]]]);
    assert.equal(rubrics[0]?.title, 'Accuracy');
  });

  it('is clean: no diagnostic at all for the fixture', () => {
    assert.deepEqual(validateTemplate(CRITERIA), []);
  });

  it('normalises weights to sum to 1, and gives equal shares when they sum to 0', () => {
    assert.deepEqual(normalisedWeights([{ name: 'a', description: 'x', weight: 2 }, { name: 'b', description: 'x', weight: 2 }]), [0.5, 0.5]);
    assert.deepEqual(normalisedWeights([{ name: 'a', description: 'x', weight: 0 }, { name: 'b', description: 'x', weight: 0 }]), [0.5, 0.5]);
  });

  it('does not report the repeated scores of two criteria as rubric-duplicate', () => {
    expectNone(CRITERIA, 'rubric-duplicate');
    expectNone(CRITERIA, 'rubric-gap');
  });

  describe('criterion-rubric-missing', () => {
    it('fires at the name of a criterion with no ## subsection under # Rubric', () => {
      const d = expectOne(edit(CRITERIA, ['- name: clarity', '- name: ⟨clarity⟩'], ['## clarity\n\n- 3: Plain and ordered.\n- 2: Needs a second reading.\n- 1: Cannot be followed.\n', '']), 'criterion-rubric-missing');
      assert.equal(d.severity, 'error');
      assert.match(d.message, /## clarity/);
    });

    it('does not fire when the heading spells the name in words ("## Accuracy")', () => {
      expectNone(CRITERIA, 'criterion-rubric-missing');
    });
  });

  describe('criterion-weight-range', () => {
    it('fires at a weight above 1', () => {
      const d = expectOne(edit(CRITERIA, ['weight: 0.7', 'weight: ⟨1.7⟩']), 'criterion-weight-range');
      assert.match(d.message, /from 0 to 1/);
    });

    it('fires at a negative weight', () => {
      expectOne(edit(CRITERIA, ['weight: 0.3', 'weight: ⟨-0.3⟩']), 'criterion-weight-range');
    });

    it('does not fire for weights of exactly 0 and 1', () => {
      expectNone(edit(CRITERIA, ['weight: 0.7', 'weight: 1'], ['weight: 0.3', 'weight: 0']), 'criterion-weight-range');
    });
  });

  describe('criterion-weights-sum', () => {
    it('warns at the criteria key when the weights do not sum to 1, and says they are normalised', () => {
      const d = expectOne(edit(CRITERIA, ['criteria:', '⟨criteria⟩:'], ['weight: 0.3', 'weight: 0.5']), 'criterion-weights-sum');
      assert.equal(d.severity, 'warning');
      assert.match(d.message, /1\.2.*normalised/);
    });

    it('is an error when every weight is 0', () => {
      const d = expectOne(edit(CRITERIA, ['weight: 0.7', 'weight: 0'], ['weight: 0.3', 'weight: 0']), 'criterion-weights-sum');
      assert.equal(d.severity, 'error');
    });

    it('does not fire for 0.1 + 0.2 + 0.7 (a float sum of 0.9999999999999999)', () => {
      const three = edit(CRITERIA, ['weight: 0.7', 'weight: 0.1'], ['weight: 0.3', 'weight: 0.2\n  - name: depth\n    description: Deep.\n    weight: 0.7']);
      expectNone(three, 'criterion-weights-sum');
    });
  });

  describe('criterion-rubric-gap', () => {
    it('fires at the heading of a criterion whose rubric skips a score, naming it', () => {
      const d = expectOne(edit(CRITERIA, ['## clarity', '## ⟨clarity⟩'], ['- 2: Needs a second reading.\n', '']), 'criterion-rubric-gap');
      assert.match(d.message, /score 2 /);
      assert.deepEqual(d.data, { criterion: 'clarity', scores: [2] });
    });

    it('fires for a subsection with no score lines at all', () => {
      const d = expectOne(edit(CRITERIA, ['## Accuracy', '## ⟨Accuracy⟩'], ['- 3: Every claim is true.\n- 2: One wrong detail.\n- 1: The main claim is wrong.\n', 'Write it.\n']), 'criterion-rubric-gap');
      assert.match(d.message, /scores 1, 2, 3/);
    });

    it('reports a score outside the scale inside a subsection as rubric-out-of-scale', () => {
      expectOne(edit(CRITERIA, ['- 3: Plain and ordered.', '- 3: Plain and ordered.\n- ⟨4⟩: Too plain.']), 'rubric-out-of-scale');
    });

    it('does not fire when a range line ("- 2-3: …") covers the missing scores', () => {
      expectNone(edit(CRITERIA, ['- 3: Plain and ordered.\n- 2: Needs a second reading.', '- 2-3: Plain enough.']), 'criterion-rubric-gap');
    });
  });

  describe('example-criterion-missing', () => {
    it('fires at the example reply that leaves a criterion out', () => {
      const fixture = edit(CRITERIA, [', "clarity": {"evidence": [], "justification": "y", "score": 2, "improvement": "z"}', '']);
      const { text } = { text: fixture };
      const found = withCode(validateTemplate(text), 'example-criterion-missing');
      assert.equal(found.length, 1);
      const line = text.split('\n').findIndex((l) => l.startsWith('{"criteria"')) + 1;
      assert.equal(found[0]?.line, line);
      assert.match(found[0]!.message, /"clarity"/);
      // Reported once: not also as a schema mismatch.
      assert.deepEqual(withCode(validateTemplate(text), 'example-invalid-json'), []);
    });

    it('does not fire for an example with every criterion, but an out-of-scale score there is example-out-of-scale', () => {
      expectNone(CRITERIA, 'example-criterion-missing');
      const bad = edit(CRITERIA, ['"score": 2, "improvement"', '"score": 9, "improvement"']);
      assert.equal(withCode(validateTemplate(bad), 'example-out-of-scale').length, 1);
    });
  });

  describe('unknown-criterion', () => {
    it('fires at a rubric heading that names no criterion, with a suggestion', () => {
      const d = expectOne(edit(CRITERIA, ['## clarity', '## ⟨clarty⟩']), 'unknown-criterion');
      assert.match(d.message, /did you mean `clarity`/);
    });
  });

  describe('front matter', () => {
    it('rejects criteria on a pairwise template', () => {
      const t = parseTemplate(edit(CRITERIA, ['kind: pointwise', 'kind: pairwise'], ['scale: [1, 3]\n', '']));
      assert.ok(t.diagnostics.some((d) => d.code === 'front-matter-invalid' && /criteria/.test(d.message)));
    });

    it('rejects a reserved criterion name whose column would clash (score_rounded)', () => {
      const t = parseTemplate(edit(CRITERIA, ['- name: clarity', '- name: rounded']));
      assert.ok(t.diagnostics.some((d) => d.code === 'front-matter-invalid' && /reserved/.test(d.message)));
    });
  });
});

describe('rendered prompt of a multi-criterion template', () => {
  it('lists every criterion with its description and normalised weight, and the reply shape, in the preview', async () => {
    const { renderTemplate } = await import('../../src/core/template');
    const out = renderTemplate(parseTemplate(CRITERIA), { prompt: 'p', response: 'r' });
    assert.ok(out.ok);
    if (!out.ok) return;
    const user = out.prompt.messages.map((m) => m.content).join('\n');
    assert.match(user, /"accuracy": Claims are true\. \(weight 70%\)/);
    assert.match(user, /"clarity": Easy to follow\. \(weight 30%\)/);
    assert.match(user, /"evidence".*\n.*"justification".*\n.*"score".*\n.*"improvement"/);
  });
});
