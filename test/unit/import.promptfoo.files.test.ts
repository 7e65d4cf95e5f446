// The promptfoo importer reads what promptfoo reads: `file://` tests and globs (YAML and CSV),
// assert-sets, not-llm-rubric, thresholds applied to the verdict, list-valued g-eval, grader
// providers carried into the model, and js-yaml's leniency for quoted values continued at column 0.
// Files are followed relative to the config and never outside its folder unless allowed. Every
// assertion is imported, refused with a reason, or named.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importJudgePromptFile } from '../../src/core/import';
import { importPromptfoo } from '../../src/core/import/promptfoo';
import { loadPromptfooYaml } from '../../src/core/import/promptfooYaml';
import { modelName } from '../../src/core/import/promptfooProvider';
import { strategyFor } from '../../src/core/judge/strategies/strategy';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import type { ImportResult } from '../../src/core/import/types';
import { tempDir } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '../../..');
const CONFIG = path.join(ROOT, 'test/fixtures/import/promptfoo/promptfooconfig.yaml');

const verdictOf = (text: string, replyText: string) => strategyFor(parseTemplate(text).config!).parse!(replyText);

describe('import promptfoo: what promptfoo reads', () => {
  let result: ImportResult;
  let byName: Map<string, string>;
  before(async () => {
    result = await importJudgePromptFile('promptfoo', CONFIG);
    byName = new Map(result.templates.map((t) => [t.name, t.text]));
  });
  const problemsAt = (where: string) => result.problems.filter((p) => p.where === where);

  it('follows file:// globs and CSV tests, and imports assert-set members and not-llm-rubric', () => {
    assert.deepEqual(result.templates.map((t) => [t.name, t.source]), [
      ['refund_policy', 'tests/refunds.yaml[0].assert[0]'],
      ['model_graded_closedqa_2', 'tests/refunds.yaml[0].assert[1]'],
      ['llm_rubric_3', 'cases.csv[0].assert[0]'],
      ['llm_rubric_4', 'cases.csv[1].assert[0]'],
      ['not_llm_rubric_5', 'tests[2].assert[0]'],
      ['llm_rubric_6', 'tests[2].assert[1].assert[0]'],
      ['g_eval_7_1', 'tests[2].assert[2]'],
      ['g_eval_7_2', 'tests[2].assert[2]'],
      ['llm_rubric_9', 'tests[3].assert[0]'],
    ]);
    for (const t of result.templates) assert.deepEqual(validateTemplate(t.text).filter((d) => d.severity === 'error'), [], t.name);
  });

  it('refuses the model-graded assertion it cannot reproduce and names the others, so none disappears', () => {
    assert.match(problemsAt('tests[2].assert[3]')[0]!.message, /^factuality: model-graded, but not imported: .*category-to-score table/);
    assert.equal(problemsAt('tests[2].assert[3]')[0]!.severity, 'error');
    const named = result.problems.filter((p) => /not a model-graded assertion/.test(p.message)).map((p) => [p.message.split(':')[0], p.where]);
    assert.deepEqual(named, [['contains', 'cases.csv[0].assert[1]'], ['icontains', 'tests[2].assert[1].assert[1]']]);
    assert.match(problemsAt('tests[2].assert[1]')[0]!.message, /assert-set threshold: 0.5 combines its members' scores/);
  });

  it("reads a quoted value continued at column 0 as js-yaml does, and says so", () => {
    assert.ok(result.problems.some((p) => /^line \d+$/.test(p.where) && /promptfoo's YAML loader \(js-yaml\)/.test(p.message)));
    const r = renderTemplate(parseTemplate(byName.get('llm_rubric_6')!), { response: 'See Billing.' });
    assert.ok(r.ok);
    assert.match(r.prompt.messages.at(-1)!.content, /<Rubric>\nMentions the billing page and says changes apply next month\n<\/Rubric>/);
  });

  it('applies llm-rubric thresholds as promptfoo does: pass only when score >= threshold', () => {
    const t = byName.get('refund_policy')!;
    assert.deepEqual(verdictOf(t, '{"reason": "r", "pass": true, "score": 0.9}'), { ok: true, value: { justification: 'r', score: 1 } });
    assert.deepEqual(verdictOf(t, '{"reason": "r", "pass": true, "score": 0.7}'), { ok: true, value: { justification: 'r', score: 0 } });
    assert.deepEqual(verdictOf(t, '{"reason": "r", "pass": false, "score": 1}'), { ok: true, value: { justification: 'r', score: 0 } });
    assert.equal(verdictOf(t, '{"reason": "r", "pass": true}').ok, false, 'a threshold needs the score');
  });

  it('inverts not-llm-rubric after the threshold, as promptfoo does', () => {
    const t = byName.get('not_llm_rubric_5')!;
    const score = (reply: string) => {
      const v = verdictOf(t, reply);
      return v.ok ? v.value.score : v.error;
    };
    assert.equal(score('{"reason": "r", "pass": true, "score": 0.9}'), 0);
    assert.equal(score('{"reason": "r", "pass": true, "score": 0.3}'), 1);
    assert.equal(score('{"reason": "r", "pass": false, "score": 0.9}'), 1);
  });

  it('makes one template per g-eval criterion and states promptfoo\'s averaging; a single g-eval passes at threshold × 10', async () => {
    const one = parseTemplate(byName.get('g_eval_7_1')!).config!;
    assert.deepEqual(one.scale, { min: 0, max: 10, continuous: true });
    assert.equal(one.pass_threshold, undefined, 'promptfoo passes the list on the mean, not per criterion');
    assert.match(problemsAt('tests[2].assert[2]').map((p) => p.message).join(' '), /a list of 2 criteria: promptfoo grades each and passes when the mean of their scores ÷ 10 is at least 0.8/);
    const single = await importPromptfoo('tests:\n  - assert:\n      - type: g-eval\n        value: Clear\n');
    assert.equal(parseTemplate(single.templates[0]!.text).config!.pass_threshold, 7, "promptfoo's default threshold 0.7");
    assert.deepEqual(verdictOf(single.templates[0]!.text, '{"score": 7.5, "reason": "ok"}'), { ok: true, value: { justification: 'ok', score: 7.5 } });
  });

  it("carries the grader provider's model (assertion over defaultTest) and says what does not carry", () => {
    const byDefault = parseTemplate(byName.get('refund_policy')!).config!.model;
    assert.deepEqual({ name: byDefault.name, temperature: byDefault.temperature, max_tokens: byDefault.max_tokens }, { name: 'gpt-4o-2024-08-06', temperature: 0, max_tokens: 300 });
    assert.ok(problemsAt('tests/refunds.yaml[0].assert[0]').some((p) => /config seed not carried/.test(p.message)));
    assert.ok(problemsAt('tests/refunds.yaml[0].assert[0]').some((p) => /its endpoint is the one the run is given/.test(p.message)));
    assert.equal(parseTemplate(byName.get('llm_rubric_9')!).config!.model.name, 'llama3.1:8b');
    assert.equal(modelName('openai:gpt-4o'), 'gpt-4o');
    assert.equal(modelName('file://grader.js'), undefined);
  });

  it('imports llm-rubric without value, with a rubricPrompt that never uses {{rubric}}', () => {
    const r = renderTemplate(parseTemplate(byName.get('llm_rubric_9')!), { response: 'Refunds within 30 days.' });
    assert.ok(r.ok);
    assert.deepEqual(r.prompt.messages, [
      { role: 'system', content: 'Reply with {"pass": true|false, "reason": "..."} and nothing else.' },
      { role: 'user', content: 'Is this a calm and accurate answer? Refunds within 30 days.' },
    ]);
  });

  describe('files outside the config', () => {
    let dir: string;
    beforeEach(() => {
      dir = tempDir();
      fs.mkdirSync(path.join(dir, 'project'));
      fs.mkdirSync(path.join(dir, 'shared'));
      fs.writeFileSync(path.join(dir, 'shared', 'tests.yaml'), '- assert:\n    - type: llm-rubric\n      value: Polite\n');
      fs.writeFileSync(path.join(dir, 'project', 'promptfooconfig.yaml'), 'tests: file://../shared/tests.yaml\n');
    });

    it('refuses them unless the user allows their folder', async () => {
      const config = path.join(dir, 'project', 'promptfooconfig.yaml');
      const refused = await importJudgePromptFile('promptfoo', config);
      assert.equal(refused.templates.length, 0);
      assert.match(refused.problems[0]!.message, /outside the config's folder.*pass --allow/);
      const allowed = await importJudgePromptFile('promptfoo', config, { allow: [path.join(dir, 'shared')] });
      assert.equal(allowed.templates.length, 1);
    });

    it('refuses a link inside the folder that leads out of it', async () => {
      fs.symlinkSync(path.join(dir, 'shared', 'tests.yaml'), path.join(dir, 'project', 'linked.yaml'));
      fs.writeFileSync(path.join(dir, 'project', 'promptfooconfig.yaml'), 'tests: [file://linked.yaml]\n');
      const r = await importJudgePromptFile('promptfoo', path.join(dir, 'project', 'promptfooconfig.yaml'));
      assert.equal(r.templates.length, 0);
      assert.match(r.problems[0]!.message, /outside the config's folder/);
    });

    it('says a file:// test list needs the config file itself when only its text is given', async () => {
      const r = await importPromptfoo('tests:\n  - file://tests.yaml\n  - assert: [{type: llm-rubric, value: x}]\n');
      assert.equal(r.templates.length, 1, 'the inline test is still imported');
      assert.match(r.problems[0]!.message, /import the config file itself/);
    });
  });
});

describe("promptfoo's YAML leniency", () => {
  // Expected values are what js-yaml 4 (promptfoo's loader) returns for the same text.
  it('folds quoted continuation lines at column 0 like js-yaml, in double and single quotes', () => {
    const cases: [string, unknown][] = [
      ['a:\n  b: "one\ntwo\n  three"\n', { a: { b: 'one two three' } }],
      ["a:\n  - 'it''s\nfine'\n", { a: ["it's fine"] }],
      ['a:\n  b: "x\n\ny"\n', { a: { b: 'x\ny' } }],
      ['a:\n  b: "keep \\\ntogether"\n', { a: { b: 'keep together' } }],
      ['a:\n  b: "# not a comment\n- not an item\nc: not a key"\n', { a: { b: '# not a comment - not an item c: not a key' } }],
    ];
    for (const [text, expected] of cases) {
      const r = loadPromptfooYaml(text);
      assert.ok(r.ok, `${JSON.stringify(text)}: ${r.ok ? '' : r.error}`);
      assert.deepEqual(r.value, expected, JSON.stringify(text));
      assert.equal(r.lenient.length, 1);
    }
  });

  it('applies merge keys, and refuses what js-yaml refuses too', () => {
    const merged = loadPromptfooYaml('base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n');
    assert.ok(merged.ok);
    assert.deepEqual(merged.value, { base: { x: 1 }, c: { x: 1, y: 2 } });
    assert.deepEqual(loadPromptfooYaml('a:\n  b: "x\n--- y"\n').ok, false, 'a document marker inside a quoted value');
    assert.deepEqual(loadPromptfooYaml('a:\n  b: "never closed\n').ok, false);
    const strict = loadPromptfooYaml('a:\n  b: "fine"\n');
    assert.ok(strict.ok && strict.lenient.length === 0, 'valid YAML needs no leniency');
  });
});
