// The promptfoo importer: each grader assertion becomes a template whose render equals promptfoo's
// grading prompt rendered with the test's variables (plain `{{ var }}` substitution, as Nunjucks does
// for these prompts), and whose verdict is read as promptfoo reads it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROMPTFOO_CLOSED_QA, PROMPTFOO_LLM_RUBRIC } from '../../src/core/import/data/promptfooDefaults';
import { importPromptfoo } from '../../src/core/import/promptfoo';
import { strategyFor } from '../../src/core/judge/strategies/strategy';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';

const ROOT = path.resolve(__dirname, '../../..');
const config = fs.readFileSync(path.join(ROOT, 'test/fixtures/import/promptfooconfig.yaml'), 'utf8');

/** Nunjucks' rule for plain variables: `{{ name }}` → its value. */
function nunjucks(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, n: string) => vars[n] ?? '');
}

function render(text: string, row: Record<string, string>) {
  const r = renderTemplate(parseTemplate(text), row);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.prompt.messages;
}

describe('import promptfoo', () => {
  let result: Awaited<ReturnType<typeof importPromptfoo>>;
  let byName: Map<string, { text: string }>;
  before(async () => {
    result = await importPromptfoo(config);
    byName = new Map(result.templates.map((t) => [t.name, t]));
  });

  it('makes a template per grader assertion, defaultTest included, warns about g-eval steps and names the assertion that is not model-graded', () => {
    assert.deepEqual(result.templates.map((t) => t.file), ['llm_rubric_1.judge', 'mentions_product.judge', 'model_graded_closedqa_3.judge', 'g_eval_4.judge', 'llm_rubric_5.judge']);
    assert.deepEqual(result.problems.map((p) => [p.severity, p.where]), [['warning', 'tests[0].assert[3]'], ['warning', 'tests[1].assert[0]'], ['warning', 'tests[0].assert[0]']]);
    assert.match(result.problems[1]!.message, /the grading prompt says \{\{input\}\}, which promptfoo 0\.121\.20 does not give llm-rubric's grading prompt and this test has no such var/);
    assert.match(result.problems[2]!.message, /^contains: not a model-graded assertion/);
    for (const t of result.templates) assert.deepEqual(validateTemplate(t.text).filter((d) => d.severity === 'error'), [], t.file);
  });

  it("renders llm-rubric with promptfoo's default prompt and the rubric's own variables", () => {
    const row = { response: 'Open Settings, then 1. Security 2. Reset.', product: 'Acme Cloud' };
    const rubric = 'Names Acme Cloud and gives numbered steps';
    assert.deepEqual(render(byName.get('mentions_product')!.text, row), PROMPTFOO_LLM_RUBRIC.map((m) => ({ role: m.role, content: nunjucks(m.content, { output: row.response, rubric }) })));
  });

  it("uses the test's rubricPrompt override instead of the default, whose {{ input }} is a test var for llm-rubric (none here: empty)", () => {
    const row = { prompt: 'What is {{x}} in a template?', response: 'A placeholder: {{x}} \\o/' };
    assert.deepEqual(render(byName.get('llm_rubric_5')!.text, row), [
      { role: 'system', content: 'Grade strictly. Return {"reason": string, "pass": boolean, "score": number}.' },
      { role: 'user', content: `Question: \nAnswer: ${row.response}\nRule: Explains that braces mark a placeholder` },
    ]);
  });

  it('renders closed QA as a single system message', () => {
    const row = { prompt: 'How do I reset?', response: 'A link is emailed to you.' };
    const expected = nunjucks(PROMPTFOO_CLOSED_QA[0]!.content, { input: row.prompt, completion: row.response, criteria: 'Says where the reset link is sent' });
    assert.deepEqual(render(byName.get('model_graded_closedqa_3')!.text, row), [{ role: 'system', content: expected }]);
  });

  it('reads verdicts as promptfoo does: pass of {reason, pass, score}, a final Y or N, a 0-10 g-eval score', () => {
    const read = (name: string, reply: string) => {
      const s = strategyFor(parseTemplate(byName.get(name)!.text).config!);
      return s.parse!(reply);
    };
    assert.deepEqual(read('llm_rubric_1', '{"reason": "Polite throughout.", "pass": true, "score": 0.9}'), { ok: true, value: { justification: 'Polite throughout.', score: 1 } });
    assert.deepEqual(read('llm_rubric_1', '```json\n{"reason": "Blames the user.", "pass": false, "score": 0.1}\n```'), { ok: true, value: { justification: 'Blames the user.', score: 0 } });
    assert.equal(read('llm_rubric_1', '{"reason": "?", "score": 1}').ok, false);
    assert.deepEqual(read('model_graded_closedqa_3', 'It names the email.\nY\nY\n'), { ok: true, value: { justification: 'It names the email.\nY', score: 1 } });
    assert.equal(read('model_graded_closedqa_3', 'Probably yes.').ok, false);
    assert.deepEqual(read('g_eval_4', '{"score":7,"reason":"Mostly complete."}'), { ok: true, value: { justification: 'Mostly complete.', score: 7 } });
  });

  it('reports a Nunjucks tag it cannot reproduce and a file it cannot read', async () => {
    const r = await importPromptfoo('tests:\n  - assert:\n      - type: llm-rubric\n        value: "{% if x %}y{% endif %}"\n');
    assert.equal(r.templates.length, 0);
    assert.match(r.problems[0]!.message, /more than a plain \{\{ variable \}\}/);
    assert.equal((await importPromptfoo('a: [')).problems[0]!.where, 'file');
  });
});
