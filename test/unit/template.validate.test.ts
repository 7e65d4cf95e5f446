// One test per diagnostic code where it fires (at the marked text) and one where it must not:
// front matter, sections, placeholders and Handlebars syntax. Rubric, example and dimension codes
// are in template.rubric.test.ts, the judge-prompt lints in template.lints.test.ts, criteria in template.criteria.test.ts.
import * as assert from 'node:assert/strict';
import { DIAGNOSTIC_CODES } from '../../src/core/diagnostics';
import { validateTemplate } from '../../src/core/template';
import { edit, expectNone, expectOne, HHH, marked, spanOf, VALID, withCode } from './template.fixtures.test';

describe('validateTemplate', () => {
  it('has a test here, in template.rubric.test.ts, template.lints.test.ts, template.verdict.test.ts or categorical.test.ts for every stable diagnostic code', () => {
    // Guards this file against a code being added without tests.
    const tested = new Set(['front-matter-missing', 'front-matter-invalid', 'missing-section', 'duplicate-section', 'empty-section', 'missing-placeholder', 'unknown-placeholder', 'unused-input', 'handlebars-syntax', 'rubric-gap', 'rubric-duplicate', 'rubric-out-of-scale', 'example-invalid-json', 'example-out-of-scale', 'unknown-dimension', 'ranking-level-missing', 'empty-rubric-level', 'rubric-vague', 'undelimited-input', 'verdict-before-reasoning', 'examples-unbalanced', 'verdict-missing', 'verdict-not-asked', 'verdict-labels-in-prompt', 'verdict-pattern-invalid', 'verdict-pattern-unsafe', 'criterion-rubric-missing', 'criterion-weight-range', 'criterion-weights-sum', 'criterion-rubric-gap', 'example-criterion-missing', 'unknown-criterion', 'placeholder-before-rubric', 'verdict-pattern-unsupported', 'example-label-unknown']);
    assert.deepEqual(DIAGNOSTIC_CODES.filter((c) => !tested.has(c)), []);
  });

  describe('front-matter-missing', () => {
    it('fires on line 1 of a file that starts with Markdown', () => {
      const d = expectOne('⟨# Criteria⟩\n\n{{response}}\n', 'front-matter-missing');
      assert.equal(d.severity, 'error');
      assert.match(d.message, /---/);
    });

    it('does not fire when a byte-order mark precedes the opening ---', () => {
      expectNone('\uFEFF' + VALID, 'front-matter-missing');
      assert.deepEqual(validateTemplate('\uFEFF' + VALID), []);
    });
  });

  describe('front-matter-invalid', () => {
    it('points at the value of a bad `kind`', () => {
      const d = expectOne(edit(VALID, ['kind: pointwise', 'kind: ⟨pointwse⟩']), 'front-matter-invalid');
      assert.match(d.message, /pointwise.*pairwise/);
    });

    it('points at an unknown key and suggests the known one', () => {
      const d = expectOne(edit(VALID, ['scale: [1, 3]', 'scale: [1, 3]\n⟨scael⟩: 2']), 'front-matter-invalid');
      assert.match(d.message, /did you mean `scale`\?/);
    });

    it('points at the `---` line of front matter that is never closed', () => {
      expectOne('⟨---⟩\nname: x\nkind: pointwise\n\n# Criteria\n', 'front-matter-invalid');
    });

    it('points at a required key that is missing via the opening `---`', () => {
      const d = expectOne(edit(VALID, ['---\nname: helpfulness\n', '⟨---⟩\n']), 'front-matter-invalid');
      assert.match(d.message, /`name`: required/);
    });

    it('points at a YAML alias with no anchor instead of failing the whole template', () => {
      const d = expectOne(edit(VALID, ['scale: [1, 3]', 'scale: [1, 3]\nmodel:\n  temperature: ⟨*zero⟩']), 'front-matter-invalid');
      assert.match(d.message, /alias/);
    });

    it('does not fire for the {min, max} form of scale', () => {
      expectNone(edit(VALID, ['scale: [1, 3]', 'scale: {min: 1, max: 3}']), 'front-matter-invalid');
    });
  });

  describe('missing-section', () => {
    it('fires when the only # Rubric heading sits inside a code fence', () => {
      const fixture = edit(VALID, ['---\n# Criteria', '---\n⟨# Criteria⟩'], ['# Rubric\n', '```\n# Rubric\n```\n']);
      const d = expectOne(fixture, 'missing-section');
      assert.match(d.message, /`# Rubric`/);
      assert.match(d.message, /outside code fences/);
    });

    it('fires for an indented `# Rubric`, which Markdown reads as code', () => {
      expectOne(edit(VALID, ['---\n# Criteria', '---\n⟨# Criteria⟩'], ['\n# Rubric\n', '\n    # Rubric\n']), 'missing-section');
    });

    it('does not fire for the alias `# Rating rubric` written in capitals', () => {
      expectNone(edit(VALID, ['# Rubric', '# RATING RUBRIC']), 'missing-section');
    });
  });

  describe('duplicate-section', () => {
    it('fires on the second heading of the same section, aliases included', () => {
      const d = expectOne(edit(VALID, ['# Task', '⟨# Rating rubric⟩\n\n- 3: Again.\n\n# Task']), 'duplicate-section');
      assert.match(d.message, /line 10/);
    });

    it('does not fire for two headings the format does not know', () => {
      expectNone(edit(VALID, ['# Task', '# Notes\n\nA.\n\n# Notes\n\nB.\n\n# Task']), 'duplicate-section');
    });
  });

  describe('empty-section', () => {
    it('fires as a warning on a heading whose section holds only a comment', () => {
      const d = expectOne(edit(VALID, ['# Criteria\n\nIs the response helpful?\n', '⟨# Criteria⟩\n\n{{!-- write me --}}\n']), 'empty-section');
      assert.equal(d.severity, 'warning');
    });

    it('fires on an empty section at the very end of the file', () => {
      expectOne(VALID + '\n⟨# Examples⟩', 'empty-section');
    });

    it('does not fire when the section has text', () => {
      expectNone(VALID, 'empty-section');
    });
  });

  describe('missing-placeholder', () => {
    it('fires as an error when a pointwise body never shows {{response}}', () => {
      const d = expectOne(edit(VALID, ['---\n# Criteria', '---\n⟨# Criteria⟩'], ['{{response}}', 'the response']), 'missing-placeholder');
      assert.equal(d.severity, 'error');
      assert.match(d.message, /\{\{response\}\}/);
    });

    it('fires as a warning when {{prompt}} is absent', () => {
      const d = expectOne(edit(VALID, ['---\n# Criteria', '---\n⟨# Criteria⟩'], ['{{prompt}}', 'the prompt']), 'missing-placeholder');
      assert.equal(d.severity, 'warning');
    });

    it('fires for a pairwise body that shows only response A', () => {
      const d = expectOne(edit(HHH, ['---\n# Criteria', '---\n⟨# Criteria⟩'], [' {{response_b}}', '']), 'missing-placeholder');
      assert.match(d.message, /response_b/);
    });

    it('does not fire for the Vertex pair baseline_model_response + response', () => {
      expectNone(edit(HHH, ['{{response_a}} {{response_b}}', '{{baseline_model_response}} {{response}}']), 'missing-placeholder');
    });
  });

  describe('unknown-placeholder', () => {
    it('points at a {{respnse}} typo and suggests `response`', () => {
      const d = expectOne(edit(VALID, ['{{response}}', '{{response}} {{⟨respnse⟩}}']), 'unknown-placeholder');
      assert.match(d.message, /did you mean `response`\?/);
      assert.deepEqual(d.data, { suggestion: 'response', name: 'respnse' });
    });

    it('suggests a declared input for a transposed typo', () => {
      const fixture = edit(VALID, ['scale: [1, 3]', 'scale: [1, 3]\ninputs: [prompt, response, rubric_notes]'], ['{{response}}', '{{response}} {{rubric_notes}} {{⟨rubirc_notes⟩}}']);
      assert.match(expectOne(fixture, 'unknown-placeholder').message, /did you mean `rubric_notes`\?/);
    });

    it('tells how to declare a field when nothing is close', () => {
      const d = expectOne(edit(VALID, ['{{response}}', '{{response}} {{⟨zzz⟩}}']), 'unknown-placeholder');
      assert.match(d.message, /inputs/);
      assert.doesNotMatch(d.message, /did you mean/);
    });

    it('does not fire for fields read inside an {{#each}} block', () => {
      const fixture = edit(VALID, ['scale: [1, 3]', 'scale: [1, 3]\ninputs: [prompt, response, shots]'], ['{{response}}', '{{response}}\n{{#each shots}}{{input}} {{this.output}} {{@index}}{{/each}}']);
      expectNone(fixture, 'unknown-placeholder');
    });
  });

  describe('unused-input', () => {
    it('fires as a warning at the declared input in a block-style YAML list', () => {
      const fixture = edit(VALID, ['scale: [1, 3]', 'scale: [1, 3]\ninputs:\n  - prompt\n  - ⟨topic⟩\n  - response']);
      assert.equal(expectOne(fixture, 'unused-input').severity, 'warning');
    });

    it('does not fire for an input used only as an {{#if}} condition', () => {
      expectNone(edit(VALID, ['scale: [1, 3]', 'scale: [1, 3]\ninputs: [prompt, response, topic]'], ['{{prompt}}', '{{prompt}}{{#if topic}} on a topic{{/if}}']), 'unused-input');
    });
  });

  describe('handlebars-syntax', () => {
    it('points at an {{#each}} that is never closed', () => {
      const d = expectOne(edit(VALID, ['{{response}}', '{{response}}\n⟨{{#each items}}⟩\n- {{this}}\n']), 'handlebars-syntax');
      assert.match(d.message, /\{\{\/each\}\}/);
    });

    it('points at the unexpected token, not at the one before it', () => {
      expectOne(edit(VALID, ['{{prompt}}', '{{prompt}} {{#if prompt}}a{{else}}b⟨{{else}}⟩c{{/if}}']), 'handlebars-syntax');
    });

    it('points at a block closed with the wrong name', () => {
      const d = expectOne(edit(VALID, ['{{prompt}}', '{{#each response}}{{#⟨i⟩f this}}x{{/each}}{{prompt}}']), 'handlebars-syntax');
      assert.match(d.message, /doesn't match/);
    });

    it('points at a NUL byte, which Handlebars cannot read', () => {
      assert.match(expectOne(edit(VALID, ['Read the', 'Read ⟨\u0000⟩the']), 'handlebars-syntax').message, /NUL/);
    });

    it('points at a comment that is never closed', () => {
      assert.match(expectOne(edit(VALID, ['{{response}}', '{{response}} ⟨{{!--⟩ todo']), 'handlebars-syntax').message, /--\}\}/);
    });

    it('points at a helper Handlebars does not ship', () => {
      assert.match(expectOne(edit(VALID, ['{{prompt}}', '{{⟨upper⟩ prompt}}']), 'handlebars-syntax').message, /not a Handlebars helper/);
    });

    it('stops at blocks nested absurdly deep instead of handing them to the quadratic parser', () => {
      const deep = '{{#if prompt}}'.repeat(64);
      expectOne(edit(VALID, ['{{response}}', `{{response}}${deep}⟨{{#if prompt}}⟩`]), 'handlebars-syntax');
    });

    it('reports a block that crosses the System heading, since System is rendered as its own message', () => {
      const { text, spans } = marked(edit(VALID, ['---\n# Criteria', '---\n# System\n\n⟨{{#if prompt}}⟩Be strict.\n\n# Criteria'], ['{{response}}', '{{response}}\n⟨{{/⟩if}}']));
      const found = withCode(validateTemplate(text), 'handlebars-syntax');
      assert.deepEqual(found.map(spanOf), spans);
    });

    it('does not fire for triple-stash, comments holding braces, or whitespace control', () => {
      expectNone(edit(VALID, ['{{prompt}}', '{{{prompt}}} {{!-- {{ and }} --}} {{~prompt~}}']), 'handlebars-syntax');
    });
  });

  describe('the issue\'s acceptance cases', () => {
    it('reports a {{respnse}} typo and a rubric that skips 3, each on its line', () => {
      const { text, spans } = marked(`---
name: helpfulness
kind: pointwise
scale: [1, 5]
---
# Criteria

Helpful?

# Rubric

- 5: Great.
- 4: Good.
⟨- 2: Weak.⟩
- 1: Bad.

# Evaluation steps

Score it.

{{prompt}}
{{⟨respnse⟩}}
`);
      const diags = validateTemplate(text);
      const gap = withCode(diags, 'rubric-gap');
      const unknown = withCode(diags, 'unknown-placeholder');
      assert.deepEqual(gap.map(spanOf), [spans[0]]);
      assert.deepEqual(unknown.map(spanOf), [spans[1]]);
      assert.match(unknown[0]!.message, /`response`/);
    });
  });
});
