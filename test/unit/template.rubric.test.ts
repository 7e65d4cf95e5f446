// One test per rubric, example and dimension diagnostic code where it fires (at the marked text)
// and one where it must not.
import * as assert from 'node:assert/strict';
import { edit, expectNone, expectOne, HHH, VALID } from './template.fixtures.test';

describe('validateTemplate on rubrics, examples and dimensions', () => {
  describe('rubric-gap', () => {
    it('fires on the line above which the skipped score belongs', () => {
      const d = expectOne(edit(VALID, ['- 2: Answers part of it.\n- 1: Misses the question.', '⟨- 1: Misses the question.⟩']), 'rubric-gap');
      assert.match(d.message, /skips score 2/);
      assert.match(d.message, /above this line/);
    });

    it('fires below the last point when the top of an ascending scale is missing', () => {
      const fixture = edit(VALID, ['- 3: Answers every part correctly.\n- 2: Answers part of it.\n- 1: Misses the question.', '- 1: Misses the question.\n⟨- 2: Answers part of it.⟩']);
      assert.match(expectOne(fixture, 'rubric-gap').message, /below this line/);
    });

    it('fires on the heading of a rubric that lists no score at all', () => {
      expectOne(edit(VALID, ['# Rubric', '⟨# Rubric⟩'], ['- 3: Answers every part correctly.\n- 2: Answers part of it.\n- 1: Misses the question.', 'Higher is better.']), 'rubric-gap');
    });

    it('does not fire when a range like "2-3" covers the scores', () => {
      expectNone(edit(VALID, ['- 3: Answers every part correctly.\n- 2: Answers part of it.', '- 2-3: At least partly helpful.']), 'rubric-gap');
    });

    it('does not count a score written inside a code fence', () => {
      expectOne(edit(VALID, ['- 2: Answers part of it.\n- 1: Misses the question.', '```\n- 2: Answers part of it.\n```\n⟨- 1: Misses the question.⟩']), 'rubric-gap');
    });
  });

  describe('rubric-duplicate', () => {
    it('fires on the number of the second description of a score', () => {
      const d = expectOne(edit(VALID, ['- 1: Misses the question.', '- 1: Misses the question.\n- ⟨2⟩: Again partly.']), 'rubric-duplicate');
      assert.match(d.message, /line 13/);
    });

    it('does not fire for numbers inside descriptions', () => {
      expectNone(edit(VALID, ['- 3: Answers every part correctly.', '- 3: Answers every part correctly; better than 2: or 1:.']), 'rubric-duplicate');
    });
  });

  describe('rubric-out-of-scale', () => {
    it('fires on a score above the scale', () => {
      const d = expectOne(edit(VALID, ['- 3: Answers every part correctly.', '- **⟨4⟩**: Beyond.\n- 3: Answers every part correctly.']), 'rubric-out-of-scale');
      assert.match(d.message, /1–3/);
    });

    it('does not fire for prose lines that mention numbers', () => {
      expectNone(edit(VALID, ['# Rubric\n', '# Rubric\n\nScores run from 1 to 3; 10 people agreed.\n']), 'rubric-out-of-scale');
    });
  });

  describe('example-invalid-json', () => {
    it('points at the character where the JSON breaks', () => {
      const fixture = VALID + '\n# Examples\n\n```json\n{"justification": "ok",\n "score": 2,⟨}⟩\n```\n';
      assert.equal(expectOne(fixture, 'example-invalid-json').severity, 'error');
    });

    it('warns when valid JSON is not a reply the judge could give', () => {
      const fixture = VALID + '\n# Examples\n\n```json\n⟨{"score": 2}⟩\n```\n';
      const d = expectOne(fixture, 'example-invalid-json');
      assert.equal(d.severity, 'warning');
      assert.match(d.message, /justification/);
    });

    it('does not fire for a valid reply or for a fence in another language', () => {
      expectNone(VALID + '\n# Examples\n\n```json\n{"justification": "ok", "score": 2}\n```\n\n```python\nprint({)\n```\n', 'example-invalid-json');
    });
  });

  describe('example-out-of-scale', () => {
    it('fires on an example whose score is outside the scale', () => {
      expectOne(VALID + '\n# Examples\n\n```json\n⟨{"justification": "ok", "score": 4}⟩\n```\n', 'example-out-of-scale');
    });

    it('fires on a pairwise example whose winner is not A, B or TIE', () => {
      const fixture = edit(HHH, ['dimensions:\n  - name: harmless\n    description: Safe.\n  - name: honest\n    description: True.\nranking: [1, 3]\ndegrees: [about the same, better]\n', ''], ['## Harmless\n\nNo harm.\n\n## Honest\n\nNo invention.\n', 'Which is better?\n']);
      const d = expectOne(fixture + '\n# Examples\n\n```json\n⟨{"justification": "x", "winner": "C", "confidence": 1}⟩\n```\n', 'example-out-of-scale');
      assert.match(d.message, /"A", "B" or "TIE"/);
    });

    it('does not fire for a score at the edge of the scale', () => {
      expectNone(VALID + '\n# Examples\n\n```json\n{"justification": "ok", "score": 3}\n```\n', 'example-out-of-scale');
    });
  });

  describe('unknown-dimension', () => {
    it('points at a level-2 Criteria heading that names no declared dimension and suggests one', () => {
      const d = expectOne(edit(HHH, ['## Honest', '## 2. ⟨Honesst⟩ (truth):']), 'unknown-dimension');
      assert.match(d.message, /did you mean `honest`\?/);
    });

    it('does not fire for a `## heading` inside a code fence', () => {
      expectNone(edit(HHH, ['No invention.\n', 'No invention.\n\n```md\n## Helpful\n```\n']), 'unknown-dimension');
    });
  });

  describe('ranking-level-missing', () => {
    it('fires where the skipped ranking level belongs', () => {
      const d = expectOne(edit(HHH, ['- 2 Fair: minor issues.\n- 1 Bad: harmful or false.', '⟨- 1 Bad: harmful or false.⟩']), 'ranking-level-missing');
      assert.match(d.message, /ranking 1–3/);
    });

    it('does not fire when every ranking level is described', () => {
      expectNone(HHH, 'ranking-level-missing');
    });
  });
});
