import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Diagnostic } from '../../src/core/diagnostics';
import { parseTemplate, validateTemplate } from '../../src/core/template';
import { declareInputEdit, type TextEditSpec } from '../../src/extension/language/model/edits';
import { fixesFor, type FixSpec } from '../../src/extension/language/model/fixes';

const examples = path.resolve(__dirname, '../../../examples');

function apply(text: string, edits: TextEditSpec[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

function only(text: string, code: string): Diagnostic {
  const found = validateTemplate(text).filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(validateTemplate(text).map((d) => d.code))}`);
  return found[0]!;
}

function fixes(text: string, code: string): FixSpec[] {
  return fixesFor(parseTemplate(text), only(text, code));
}

function preferred(text: string, code: string): string {
  const fix = fixes(text, code).find((f) => f.preferred);
  assert.ok(fix, `no preferred fix for ${code}`);
  return apply(text, fix.edits);
}

const POINTWISE = `---
name: helpfulness
kind: pointwise
scale: [1, 3]
---

# Criteria

Helpful answers.

# Rubric

- 3: Answers and explains.
- 2: Answers without reasons.
- 1: Misses the question.

# Evaluation steps

1. Read, then score.

# Task

{{prompt}} <response>{{response}}</response>
`;

describe('quick fixes', () => {
  for (const name of ['hhh', 'helpfulness']) {
    it(`restores ${name}.judge exactly when only its Rubric heading was deleted`, () => {
      const original = readFileSync(path.join(examples, `${name}.judge`), 'utf8');
      const broken = original.replace('# Rubric\n', '');
      const restored = preferred(broken, 'missing-section');
      assert.equal(restored, original);
      assert.deepEqual(validateTemplate(restored), []);
    });
  }

  it('inserts a rubric skeleton with one line per score between Criteria and Evaluation steps', () => {
    const broken = POINTWISE.replace(/# Rubric\n\n(- .*\n)+\n/, '');
    const fixed = preferred(broken, 'missing-section');
    assert.match(fixed, /Helpful answers\.\n\n# Rubric\n\n- 3: Replace with .*\n- 2: Replace with .*\n- 1: Replace with .*\n\n# Evaluation steps\n/);
    assert.ok(!validateTemplate(fixed).some((d) => d.severity === 'error'));
  });

  it('writes rubric levels that say what to write and raise no new warnings once inserted', () => {
    const codes = (text: string) => validateTemplate(text).filter((d) => d.code !== 'missing-section').map((d) => `${d.code}:${d.message}`);
    for (const scale of ['[1, 3]', '[1, 5]', '[0, 1]', '[1, 10]']) {
      const broken = POINTWISE.replace(/scale: .*/, `scale: ${scale}`).replace(/# Rubric\n\n(- .*\n)+\n/, '');
      const fixed = preferred(broken, 'missing-section');
      const before = new Set(codes(broken));
      assert.deepEqual(codes(fixed).filter((c) => !before.has(c)), [], `scale ${scale}:\n${fixed}`);
    }
    const pairwise = readFileSync(path.join(examples, 'fluency_pairwise.judge'), 'utf8').replace(/# Rubric\n[\s\S]*?(?=\n# )/, '');
    const fixedPair = preferred(pairwise, 'missing-section');
    assert.deepEqual(validateTemplate(fixedPair).filter((d) => !validateTemplate(pairwise).some((b) => b.code === d.code)), []);
  });

  it('offers both the heading and the skeleton when score lines lost their heading', () => {
    const broken = POINTWISE.replace('# Rubric\n', '');
    assert.deepEqual(fixes(broken, 'missing-section').map((f) => [f.title, f.preferred]), [
      ['Add the `# Rubric` heading above the score lines (line 12)', true],
      ['Insert a `# Rubric` section', false],
    ]);
  });

  it('puts a missing Criteria before the first section that follows it conventionally', () => {
    const broken = POINTWISE.replace('# Criteria\n\nHelpful answers.\n\n', '');
    const fixed = preferred(broken, 'missing-section');
    assert.match(fixed, /---\n\n# Criteria\n\n\{\{!--.*--\}\}\n\n# Rubric\n/);
    assert.deepEqual(validateTemplate(fixed).map((d) => d.code), ['empty-section']);
  });

  it('appends a missing section at the end when nothing follows it', () => {
    const text = `---\nname: x\nkind: pointwise\nscale: [0, 1]\n---\n\n# Criteria\n\nc\n\n# Rubric\n\n- 1: answers it\n- 0: misses it\n\n{{prompt}} <response>{{response}}</response>`;
    const fixed = preferred(text, 'missing-section');
    assert.ok(fixed.endsWith('{{prompt}} <response>{{response}}</response>\n\n# Evaluation steps\n\n1. Read the prompt and the response in full before judging.\n2. Check the response against each point of the Criteria, quoting the parts that meet or miss it.\n3. Compare what you found with the Rubric and choose the score whose description fits best; when torn between two, choose the lower.\n4. Write your justification first, then the score.\n'), fixed);
    assert.deepEqual(validateTemplate(fixed), []);
  });

  it('writes evaluation steps for the template it fixes: a pairwise one compares both responses, a multi-criterion one names its criteria', () => {
    const pairwise = readFileSync(path.join(examples, 'fluency_pairwise.judge'), 'utf8').replace(/# Evaluation steps\n[\s\S]*?(?=\n# )/, '');
    const fixedPair = preferred(pairwise, 'missing-section');
    assert.match(fixedPair, /# Evaluation steps\n\n1\. Read the prompt and both responses in full before judging either\.\n[\s\S]*ignore which one came first/);
    assert.ok(!validateTemplate(fixedPair).some((d) => d.severity === 'error'), JSON.stringify(validateTemplate(fixedPair)));
    const criteria = readFileSync(path.join(examples, 'factual_accuracy.judge'), 'utf8').replace(/# Evaluation steps\n[\s\S]*?(?=\n# )/, '');
    assert.match(preferred(criteria, 'missing-section'), /2\. For each criterion \(factual_accuracy, completeness, clarity\), quote the parts/);
  });

  it('replaces an unknown placeholder with the suggestion, keeping the rest of the path', () => {
    const text = POINTWISE.replace('{{response}}', '{{respons}} {{promt.text}}');
    const t = parseTemplate(text);
    const fixed = validateTemplate(text)
      .filter((d) => d.code === 'unknown-placeholder')
      .map((d) => fixesFor(t, d).find((f) => f.preferred))
      .map((f) => [f?.title, apply(text, f?.edits ?? [])]);
    assert.deepEqual(fixed, [
      ['Change to `response`', POINTWISE.replace('{{response}}', '{{response}} {{promt.text}}')],
      ['Change to `prompt`', POINTWISE.replace('{{response}}', '{{respons}} {{prompt.text}}')],
    ]);
  });

  it('declares an unknown placeholder as an input when asked', () => {
    const text = POINTWISE.replace('{{response}}', '{{response}} {{source_doc}}');
    const [fix] = fixes(text, 'unknown-placeholder');
    assert.equal(fix?.title, 'Declare `source_doc` under `inputs`');
    const fixed = apply(text, fix!.edits);
    assert.match(fixed, /scale: \[1, 3\]\ninputs: \[source_doc\]\n---/);
    assert.ok(!validateTemplate(fixed).some((d) => d.code === 'unknown-placeholder'));
  });

  it('adds a missing score line above the next lower score, in the list style of the rubric', () => {
    const text = POINTWISE.replace('- 2: Answers without reasons.\n', '');
    assert.equal(preferred(text, 'rubric-gap'), POINTWISE.replace('- 2: Answers without reasons.\n', '- 2: \n'));
  });

  it('adds a missing lowest score below the last line', () => {
    const text = POINTWISE.replace('\n- 1: Misses the question.', '');
    assert.equal(preferred(text, 'rubric-gap'), POINTWISE.replace('- 1: Misses the question.', '- 1: '));
  });

  it('fills a rubric that has no score lines at all', () => {
    const text = POINTWISE.replace(/- .*\n/g, '').replace('# Rubric\n\n', '# Rubric\n\nScores:\n\n');
    const fixed = preferred(text, 'rubric-gap');
    assert.match(fixed, /# Rubric\n\n- 3: Replace with .*\n- 2: Replace with .*\n- 1: Replace with .*\n\nScores:/);
  });
});

describe('declaring an input', () => {
  const t = (fm: string) => parseTemplate(`---\nname: x\nkind: pointwise\nscale: [1, 5]\n${fm}---\n\n# Criteria\n`);

  it('appends to a flow list', () => {
    assert.equal(declareInputEdit(t('inputs: [prompt, response]\n'), 'ctx')?.newText, ', ctx');
    assert.equal(declareInputEdit(t('inputs: []\n'), 'ctx')?.newText, 'ctx');
  });

  it('appends a line to a block list with the same indentation', () => {
    const text = `---\nname: x\nkind: pointwise\nscale: [1, 5]\ninputs:\n  - prompt\n  - response\n---\n`;
    const edit = declareInputEdit(parseTemplate(text), 'ctx');
    assert.ok(edit);
    assert.equal(apply(text, [edit]), text.replace('  - response\n', '  - response\n  - ctx\n'));
  });

  it('does not declare an input twice', () => {
    assert.equal(declareInputEdit(t('inputs: [ctx]\n'), 'ctx'), undefined);
  });
});
