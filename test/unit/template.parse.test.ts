// parseTemplate: front matter, sections, placeholders (from Handlebars' AST), rubric points and
// few-shot examples, each with the positions the editor features rely on.
import * as assert from 'node:assert/strict';
import { parseTemplate, sectionKey } from '../../src/core/template';
import { editDistance } from '../../src/core/template/suggest';
import { marked, spanOf } from './template.fixtures.test';

const FM = '---\nname: helpfulness\nkind: pointwise\nscale: [1, 5]\n---\n';

describe('parseTemplate', () => {
  describe('front matter', () => {
    it('reads a valid config, defaulting model.swap to true', () => {
      const t = parseTemplate('---\nname: pair\nkind: pairwise\ninputs: [prompt]\nmodel:\n  temperature: 0\n---\nbody');
      assert.deepEqual(t.config, { name: 'pair', kind: 'pairwise', inputs: ['prompt'], model: { temperature: 0, swap: true } });
      assert.equal(t.text.slice(t.bodyStart), 'body');
    });

    it('turns the [min, max] and {min, max} scale forms into the same range', () => {
      const a = parseTemplate(FM);
      const b = parseTemplate(FM.replace('[1, 5]', '{min: 1, max: 5}'));
      assert.deepEqual(a.config?.scale, { min: 1, max: 5 });
      assert.deepEqual(b.config?.scale, { min: 1, max: 5 });
    });

    it('starts the body after a CRLF closing line', () => {
      const t = parseTemplate(FM.replace(/\n/g, '\r\n') + '# Criteria');
      assert.equal(t.text.slice(t.bodyStart), '# Criteria');
    });

    it('points a YAML error at the offending key inside the front matter', () => {
      const { text, spans } = marked('---\nname: x\nkind: pointwise\n⟨name⟩: y\nscale: [1, 5]\n---\n');
      const d = parseTemplate(text).diagnostics.find((x) => x.code === 'front-matter-invalid');
      assert.ok(d);
      assert.match(d.message, /unique/);
      assert.deepEqual([d.line, d.column], [spans[0]!.line, spans[0]!.column]);
    });
  });

  describe('sections', () => {
    it('finds level-1 headings with their aliases, case-insensitively, and nothing inside code', () => {
      const t = parseTemplate(`${FM}# SYSTEM\n\ns\n\n# Rating Rubric:\n\n~~~\n# Criteria\n~~~\n\n    # Examples\n\n## Criteria\n\nInstructions\n============\n\n# Something else\n`);
      assert.deepEqual(t.sections.map((s) => [s.key, s.title]), [
        ['system', 'SYSTEM'],
        ['rubric', 'Rating Rubric:'],
        ['evaluation_steps', 'Instructions'],
        ['other', 'Something else'],
      ]);
    });

    it('gives each section the span of its heading line and a body up to the next heading', () => {
      const { text, spans } = marked(`${FM}⟨# Criteria⟩\n\nBe kind.\n\n⟨# Rubric⟩\n- 5: x\n`);
      const t = parseTemplate(text);
      assert.deepEqual(t.sections.map((s) => spanOf(s.heading)), spans);
      const criteria = t.sections[0]!;
      assert.equal(text.slice(criteria.bodyStart, criteria.bodyEnd), '\nBe kind.\n\n');
    });

    it('maps heading text to canonical keys, ignoring extra spaces and a trailing colon', () => {
      assert.equal(sectionKey('  Evaluation   steps: '), 'evaluation_steps');
      assert.equal(sectionKey('output format'), 'output_format');
      assert.equal(sectionKey('Rubrics'), 'other');
    });
  });

  describe('placeholders', () => {
    it('lists mustaches and block parameters with the span of their path text', () => {
      const { text, spans } = marked(`${FM}Q: {{⟨prompt⟩}}\n{{#if ⟨context⟩}}C: {{{⟨context⟩}}}{{/if}}\n{{~ ⟨response⟩ ~}}`);
      const t = parseTemplate(text);
      assert.deepEqual(t.placeholders.map((p) => [p.path, p.kind, p.inBlock]), [
        ['prompt', 'mustache', false],
        ['context', 'block', false],
        ['context', 'mustache', false],
        ['response', 'mustache', false],
      ]);
      assert.deepEqual(t.placeholders.map((p) => spanOf(p.span)), spans);
    });

    it('marks paths inside {{#each}} and {{#with}} as relative to the block and skips @data', () => {
      const t = parseTemplate(`${FM}{{#each shots}}{{input}} {{this.out}} {{@index}} {{../prompt}}{{/each}}{{#with meta}}{{id}}{{/with}}`);
      assert.deepEqual(t.placeholders.map((p) => [p.path, p.head, p.inBlock]), [
        ['shots', 'shots', false],
        ['input', 'input', true],
        ['this.out', '', true],
        ['../prompt', '', true],
        ['meta', 'meta', false],
        ['id', 'id', true],
      ]);
    });

    it('keeps positions exact after CRLF line breaks', () => {
      const { text, spans } = marked(`${FM}a\n\nb {{⟨prompt⟩}}\n{{⟨response⟩}}`.replace(/\n/g, '\r\n'));
      assert.deepEqual(parseTemplate(text).placeholders.map((p) => spanOf(p.span)), spans);
    });

    it('keeps positions exact after a U+2028 line separator, which Handlebars miscounts', () => {
      const { text, spans } = marked(`${FM}a\nb\u2028c {{⟨prompt⟩}} {{⟨response⟩}}`);
      assert.deepEqual(parseTemplate(text).placeholders.map((p) => spanOf(p.span)), spans);
    });

    it('keeps positions exact after a multi-line comment', () => {
      const { text, spans } = marked(`${FM}{{!-- one\ntwo --}} {{⟨prompt⟩}}`);
      assert.deepEqual(parseTemplate(text).placeholders.map((p) => spanOf(p.span)), spans);
    });

    it('reports partials as unsupported rather than as placeholders', () => {
      const { text, spans } = marked(`${FM}⟨{{> header}}⟩ {{prompt}}`);
      const t = parseTemplate(text);
      assert.deepEqual(t.placeholders.map((p) => p.path), ['prompt']);
      assert.deepEqual(t.diagnostics.map((d) => [d.code, spanOf(d)]), [['handlebars-syntax', spans[0]]]);
    });

    it('yields no placeholders and handlebarsOk false when the body does not parse', () => {
      const t = parseTemplate(`${FM}{{prompt}} {{#each x}}`);
      assert.equal(t.handlebarsOk, false);
      assert.deepEqual(t.placeholders, []);
    });
  });

  describe('rubric points', () => {
    it('reads plain, labelled, bold, "Score" and ranged points with the span of the number', () => {
      const { text, spans } = marked(`${FM}# Rubric\n\n- ⟨5⟩: Great.\n* ⟨4⟩ (Good): Fine.\n**⟨3⟩** – Fair.\nScore ⟨2⟩: Weak.\n- ⟨0-1⟩: Bad.\n1. Not a point, a step.\n`);
      const t = parseTemplate(text);
      assert.deepEqual(t.rubric.map((p) => [p.score, p.label, p.description]), [
        [5, undefined, 'Great.'],
        [4, 'Good', 'Fine.'],
        [3, undefined, 'Fair.'],
        [2, undefined, 'Weak.'],
        [0, undefined, 'Bad.'],
        [1, undefined, 'Bad.'],
      ]);
      const [a, b, c, d, e] = spans;
      assert.deepEqual(t.rubric.map((p) => spanOf(p.span)), [a, b, c, d, e, e]);
    });

    it('reads "7 Great:" labels used by ranking rubrics', () => {
      const t = parseTemplate(`${FM}# Rubric\n\n- 7 Great: all good.\n`);
      assert.deepEqual(t.rubric.map((p) => [p.score, p.label]), [[7, 'Great']]);
    });

    it('reads points only from the Rubric section', () => {
      const t = parseTemplate(`${FM}# Criteria\n\n- 5: not a point here\n\n# Rubric\n\n- 1: here\n`);
      assert.deepEqual(t.rubric.map((p) => p.score), [1]);
    });
  });

  describe('few-shot examples', () => {
    it('reads each ```json fence of the Examples section with the span of its content', () => {
      const { text, spans } = marked(`${FM}# Examples\n\nInput: hi\n\n\`\`\`json\n⟨{"justification": "x",\n "score": 4}⟩\n\`\`\`\n\n\`\`\`\n⟨{"score": 1}⟩\n\`\`\`\n\n\`\`\`text\nnot json\n\`\`\`\n`);
      const t = parseTemplate(text);
      assert.deepEqual(t.examples.map((e) => e.value), [{ justification: 'x', score: 4 }, { score: 1 }]);
      assert.deepEqual(t.examples.map((e) => spanOf(e.span)), spans);
    });

    it('ends an example span before a CRLF line break, not between its two characters', () => {
      const { text, spans } = marked(`${FM}# Examples\n\n\`\`\`json\n⟨{"score": 1}⟩\n\`\`\`\n`.replace(/\n/g, '\r\n'));
      assert.deepEqual(parseTemplate(text).examples.map((e) => spanOf(e.span)), spans);
    });

    it('keeps the JSON error of a broken example instead of a value', () => {
      const t = parseTemplate(`${FM}# Examples\n\n\`\`\`json\n{"score": }\n\`\`\`\n`);
      assert.equal(t.examples.length, 1);
      assert.equal(t.examples[0]!.value, undefined);
      assert.match(t.examples[0]!.jsonError ?? '', /JSON/);
    });
  });

  describe('did-you-mean distance', () => {
    it('counts an insertion, a deletion, a substitution and a swap of neighbours as one edit each', () => {
      assert.deepEqual([editDistance('respnse', 'response'), editDistance('responsee', 'response'), editDistance('respxnse', 'response'), editDistance('scael', 'scale')], [1, 1, 1, 1]);
      assert.equal(editDistance('abc', 'xyz'), 3);
    });
  });
});
