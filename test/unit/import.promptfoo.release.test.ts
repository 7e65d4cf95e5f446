// promptfoo of a named release: the grading prompts promptfoo 0.121.20 sends, rendered by its own npm
// package (scripts/promptfoo-fixtures.mjs, run by hand) into test/fixtures/promptfoo-0.121.20, and the
// same assertions imported and rendered by Judge Studio (the path of `judge-studio render`): the
// messages must be byte-equal. The configs are this project's own, in promptfoo's format.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importJudgePromptFile, importJudgePrompts } from '../../src/core/import';
import { PROMPTFOO_RELEASE } from '../../src/core/import/data/promptfooDefaults';
import type { ImportResult } from '../../src/core/import/types';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import { tempDir } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '../../..');
const DIR = path.join(ROOT, 'test/fixtures', `promptfoo-${PROMPTFOO_RELEASE}`);

interface RenderedCase {
  config: string;
  where: string;
  criterion?: number;
  row: Record<string, string>;
  messages: { role: string; content: string }[];
}
const fixtures = JSON.parse(fs.readFileSync(path.join(DIR, 'rendered.json'), 'utf8')) as { promptfoo: string; cases: RenderedCase[] };

/** promptfoo parses a response that is JSON and sends it re-serialized; the one case that shows it. */
const JSON_RESPONSE = { config: 'llm-rubric.yaml', where: 'tests[2].assert[0]' };

describe(`import promptfoo: byte-equal to promptfoo ${PROMPTFOO_RELEASE}`, () => {
  const imported = new Map<string, ImportResult>();
  before(async () => {
    for (const config of new Set(fixtures.cases.map((c) => c.config))) imported.set(config, await importJudgePromptFile('promptfoo', path.join(DIR, 'configs', config)));
  });

  const templateOf = (c: RenderedCase) => {
    const all = imported.get(c.config)!.templates.filter((t) => t.source === c.where);
    const t = all[(c.criterion ?? 1) - 1];
    assert.ok(t, `${c.config} ${c.where}: no template imported`);
    return t;
  };
  const render = (text: string, row: Record<string, string>) => {
    const r = renderTemplate(parseTemplate(text), row, { row: 1 });
    assert.ok(r.ok, r.ok ? '' : r.error);
    return r.prompt.messages.map((m) => ({ role: m.role, content: m.content }));
  };

  it('reads fixtures rendered by the release the defaults are taken from', () => {
    assert.equal(fixtures.promptfoo, PROMPTFOO_RELEASE);
    assert.ok(fixtures.cases.length >= 15);
  });

  it("renders every imported assertion's messages byte for byte as promptfoo sends them", () => {
    for (const c of fixtures.cases) {
      if (c.config === JSON_RESPONSE.config && c.where === JSON_RESPONSE.where) continue;
      const t = templateOf(c);
      assert.deepEqual(validateTemplate(t.text).filter((d) => d.severity === 'error'), [], `${c.config} ${t.name}`);
      assert.deepEqual(render(t.text, c.row), c.messages, `${c.config} ${c.where}${c.criterion ? ` criterion ${c.criterion}` : ''}`);
    }
  });

  it('differs only where promptfoo re-serializes a response that is JSON, and then by exactly that', () => {
    const c = fixtures.cases.find((x) => x.config === JSON_RESPONSE.config && x.where === JSON_RESPONSE.where)!;
    const t = templateOf(c);
    assert.notDeepEqual(render(t.text, c.row), c.messages);
    assert.deepEqual(render(t.text, { ...c.row, response: JSON.stringify(JSON.parse(c.row.response!)) }), c.messages);
  });

  it('fills {{output}} and {{prompt}} in a value as promptfoo does (the test has no such vars: empty) and warns naming the file, line and assertion', () => {
    const problems = imported.get('llm-rubric.yaml')!.problems.filter((p) => p.where === 'tests[1].assert[1]');
    assert.deepEqual(problems.map((p) => /says \{\{(\w+)\}\}/.exec(p.message)?.[1]), ['output', 'prompt']);
    for (const p of problems) assert.match(p.message, /^llm-rubric: the value at llm-rubric\.yaml:\d+ says \{\{\w+\}\}: promptfoo 0\.121\.20 fills an assertion's value from the test's vars only/);
    const line = Number(/llm-rubric\.yaml:(\d+)/.exec(problems[0]!.message)![1]);
    const text = fs.readFileSync(path.join(DIR, 'configs/llm-rubric.yaml'), 'utf8').split('\n');
    assert.match(text[line - 1]!, /value: 'The reply \{\{output\}\}/);
  });

  it('names the file and line of a value in a file:// tests file, and reads a var the test defines (even one named output) from the dataset', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'promptfooconfig.yaml'), 'tests: file://tests.yaml\n');
    fs.writeFileSync(path.join(dir, 'tests.yaml'), ['- vars: {output: draft}', '  assert:', '    - type: llm-rubric', '      value: Improves on {{output}} without {{prompt}}', ''].join('\n'));
    const r = await importJudgePromptFile('promptfoo', path.join(dir, 'promptfooconfig.yaml'));
    const says = r.problems.filter((p) => /says \{\{/.test(p.message));
    assert.deepEqual(says.map((p) => [p.where, /at (\S+) says/.exec(p.message)?.[1]]), [['tests.yaml[0].assert[0]', 'tests.yaml:4'], ['tests.yaml[0].assert[0]', 'tests.yaml:4']]);
    assert.match(says[0]!.message, /reads the dataset field "output"/);
    assert.match(says[1]!.message, /no var "prompt", so promptfoo sends empty text there/);
    const messages = render(r.templates[0]!.text, { response: 'final', output: 'draft' });
    assert.match(messages.at(-1)!.content, /<Rubric>\nImproves on draft without \n<\/Rubric>$/);
  });

  it('gives assertions that share a promptfoo metric distinct names and keeps the metric in source.metric', () => {
    const r = imported.get('closedqa.yaml')!;
    const quality = r.templates.filter((t) => parseTemplate(t.text).config?.source?.metric === 'quality');
    assert.deepEqual(quality.map((t) => [t.name, t.file]), [['quality', 'quality.judge'], ['quality_2', 'quality-2.judge'], ['quality_3', 'quality-3.judge']]);
    assert.equal(new Set(r.templates.map((t) => t.name)).size, r.templates.length);
  });

  it('refuses a JavaScript config in those words, in the editor\'s path and the CLI\'s alike', async () => {
    for (const name of ['promptfooconfig.js', 'promptfooconfig.cjs', 'promptfooconfig.mjs', 'promptfooconfig.ts']) {
      const r = await importJudgePrompts('promptfoo', 'module.exports = { tests: [] };\n', name);
      assert.equal(r.templates.length, 0);
      assert.equal(r.problems.length, 1);
      assert.match(r.problems[0]!.message, /^JavaScript configs are not supported: .*Export the config to YAML or JSON/);
    }
  });
});
