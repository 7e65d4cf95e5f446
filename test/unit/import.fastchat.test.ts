// The FastChat importer against test/reference/fastchat_reference.json: Python's own
// `prompt_template.format(**row)` over fixtures this project wrote in FastChat's format.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importFastChat } from '../../src/core/import/fastchat';
import { handlebarsBody, parsePythonFormat } from '../../src/core/import/pyformat';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';

const ROOT = path.resolve(__dirname, '../../..');
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');
const reference = JSON.parse(read('test/reference/fastchat_reference.json')) as Record<string, { row: number; system: string; user: string }[]>;
const rows = read('test/fixtures/import/fastchat_rows.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>);

describe('import fastchat', () => {
  const result = importFastChat(read('test/fixtures/import/fastchat_prompts.jsonl'));

  it('makes one template per prompt, named after it, with no problems', () => {
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.templates.map((t) => t.file), ['grade-one.judge', 'grade-one-ref-multi-turn.judge', 'compare-two.judge', 'compare-two-multi-turn.judge', 'brace-torture.judge']);
  });

  it('gives templates that validate without findings, with inputs named exactly as the {…} fields', () => {
    for (const t of result.templates) {
      assert.deepEqual(validateTemplate(t.text), [], t.file);
      const config = parseTemplate(t.text).config!;
      assert.equal(config.freeform, true);
      assert.deepEqual(config.verdict, { format: 'tagged', match: 'first' });
    }
    const multi = parseTemplate(result.templates[3]!.text).config!;
    assert.deepEqual(multi.inputs, ['question_1', 'answer_a_1', 'question_2', 'answer_a_2', 'answer_b_1', 'answer_b_2']);
    assert.deepEqual(multi.pair, { a: ['answer_a_1', 'answer_a_2'], b: ['answer_b_1', 'answer_b_2'] });
    assert.deepEqual(parseTemplate(result.templates[0]!.text).config!.scale, { min: 1, max: 10 });
  });

  it('renders every row, byte for byte, as Python str.format does, system prompt included', () => {
    let compared = 0;
    for (const t of result.templates) {
      const source = path.basename(t.file, '.judge');
      const expected = reference[source];
      assert.ok(expected, `reference for ${source}`);
      const parsed = parseTemplate(t.text);
      for (const e of expected) {
        const r = renderTemplate(parsed, rows[e.row - 1]!, { row: e.row });
        assert.ok(r.ok, r.ok ? '' : r.error);
        assert.deepEqual(r.prompt.messages, [
          { role: 'system', content: e.system },
          { role: 'user', content: e.user },
        ], `${source} row ${e.row}`);
        compared++;
      }
    }
    assert.equal(compared, 10);
  });

  it('renders the swapped pass with the answers exchanged field by field', () => {
    const pair = parseTemplate(result.templates[3]!.text);
    const row = rows[0]!;
    const r = renderTemplate(pair, row, { swap: true });
    assert.ok(r.ok);
    const swapped = { ...row, answer_a_1: row.answer_b_1!, answer_b_1: row.answer_a_1!, answer_a_2: row.answer_b_2!, answer_b_2: row.answer_a_2! };
    const r2 = renderTemplate(pair, swapped);
    assert.ok(r2.ok);
    assert.equal(r.prompt.messages[1]!.content, r2.prompt.messages[1]!.content);
  });

  it('reports what it cannot reproduce, per line, and imports the rest', () => {
    const text = [
      '{"name": "ok", "type": "single", "prompt_template": "{question} {answer}", "output_format": "[[rating]]"}',
      'not json',
      '{"name": "conv", "type": "single", "prompt_template": "{answer!r}", "output_format": "[[rating]]"}',
      '{"name": "two-scores", "type": "pairwise", "prompt_template": "{answer_a} {answer_b}", "output_format": "[[rating_a,rating_b]]"}',
      '{"name": "lone", "type": "single", "prompt_template": "a } b {answer}", "output_format": "[[rating]]"}',
      '{"name": "nopair", "type": "pairwise", "prompt_template": "{answer}", "output_format": "[[A]]"}',
    ].join('\n');
    const r = importFastChat(text);
    assert.deepEqual(r.templates.map((t) => t.file), ['ok.judge']);
    assert.deepEqual(r.problems.map((p) => p.where), ['line 2', 'line 3', 'line 4', 'line 5', 'line 6']);
    assert.match(r.problems[1]!.message, /\{answer!r\} is not a plain keyword field/);
    assert.match(r.problems[3]!.message, /Single '\}' encountered/);
  });

  it('escapes exactly the braces and backslashes Handlebars would read', () => {
    const body = (s: string) => {
      const p = parsePythonFormat(s);
      assert.ok(p.ok);
      const b = handlebarsBody(p.pieces);
      assert.ok(b.ok);
      return b.source;
    };
    assert.equal(body('plain {{ and }} text'), 'plain { and } text');
    assert.equal(body('{{{x}'), '{{#with "{"}}{{this}}{{/with}}{{x}}');
    assert.equal(body('{x}}}'), '{{x}}{{#with "}"}}{{this}}{{/with}}');
    assert.equal(body('\\{x}'), '\\\\{{x}}');
  });
});
