// `import openai-evals`: every label_model and score_model grader of an exported eval becomes a
// template whose render is, byte for byte, the grader's messages with the row substituted (the
// documented `{{ item.x }}` / `{{ sample.output_text }}` substitution); the other graders are listed
// as not imported. End to end: import, run the label grader against the local fake server through
// the CLI, and calibrate its labels.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_OK } from '../../src/cli/io';
import { importOpenAIEvals } from '../../src/core/import/openaiEvals';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import { reply } from '../support/fakeOpenAI';
import { cliWorkspace } from '../support/cliWorkspace';
import { readJsonl, writeJsonl } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURE = path.join(ROOT, 'test/fixtures/import/openai_eval.json');
const exported = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as { testing_criteria: Record<string, unknown>[] };

interface Input {
  role: string;
  content: string | { text: string } | { text: string }[];
}

/** What OpenAI documents: `{{ namespace.variable }}` replaced by the item's value or the sampled output. */
function substitute(text: string, item: Record<string, string>, output: string): string {
  return text.replace(/\{\{\s*(item|sample)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, ns: string, name: string) => (ns === 'sample' ? output : item[name]!));
}
const textOf = (c: Input['content']) => (typeof c === 'string' ? c : Array.isArray(c) ? c[0]!.text : c.text);

function render(text: string, row: Record<string, string>) {
  const r = renderTemplate(parseTemplate(text), row);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.prompt.messages;
}

describe('import openai-evals', () => {
  const result = importOpenAIEvals(fs.readFileSync(FIXTURE, 'utf8'));
  const byName = new Map(result.templates.map((t) => [t.name, t]));

  it('makes one template per model grader and lists the others as not imported, with why', () => {
    assert.deepEqual(result.templates.map((t) => t.file), ['Policy-compliance.judge', 'Helpfulness-1-7.judge']);
    for (const t of result.templates) assert.deepEqual(validateTemplate(t.text).filter((d) => d.severity === 'error'), [], t.file);
    // The prompts never say "JSON": structured output asks for OpenAI's reply, so no verdict-not-asked.
    for (const t of result.templates) assert.deepEqual(validateTemplate(t.text).filter((d) => d.code.startsWith('verdict-')), [], t.file);
    assert.match(result.problems.map((p) => p.message).join(' | '), /ask for OpenAI's model-grader reply \(\{"steps": \[\{"description", "conclusion"\}\], "result"\}\) as structured output/);
    const not = result.problems.filter((p) => /not imported/.test(p.message));
    assert.deepEqual(not.map((p) => [p.where, p.severity]), [['testing_criteria[2]', 'warning'], ['testing_criteria[3]', 'warning'], ['testing_criteria[4]', 'warning']]);
    assert.match(not[0]!.message, /"Mentions ticket" \(string_check\): not a model grader: it compares strings/);
    assert.match(not[1]!.message, /text similarity/);
    assert.match(not[2]!.message, /Python script/);
  });

  it('renders each model grader byte-identical to the messages the export holds', () => {
    const row = { question: 'Can I get a refund after 40 days?', policy: 'Refunds within 30 days.\nNo exceptions {ever}.', response: 'Sorry, refunds end at 30 days. {{see policy}}' };
    for (const [name, grader] of [['policy_compliance', exported.testing_criteria[0]!], ['helpfulness_1_7', exported.testing_criteria[1]!]] as const) {
      const expected = (grader.input as Input[]).map((m) => ({ role: m.role === 'developer' ? 'system' : m.role, content: substitute(textOf(m.content), row, row.response) }));
      assert.deepEqual(render(byName.get(name)!.text, row), expected, name);
    }
  });

  it('records labels, passing labels, range, threshold, model, sampling and the field mapping in front matter', () => {
    const label = parseTemplate(byName.get('policy_compliance')!.text).config!;
    assert.deepEqual(label.labels, ['compliant', 'minor issue', 'violation']);
    assert.deepEqual(label.passing_labels, ['compliant', 'minor issue']);
    assert.equal(label.model.name, 'gpt-4o-mini-2024-07-18');
    assert.deepEqual(label.source, { format: 'openai-evals', name: 'Policy compliance', fields: { 'item.policy': 'policy', 'item.question': 'question', 'sample.output_text': 'response' } });
    assert.deepEqual(label.inputs, ['policy', 'question', 'response']);
    assert.deepEqual(label.verdict, { format: 'json', fields: { label: 'result', steps: 'steps' }, structured: true });
    const score = parseTemplate(byName.get('helpfulness_1_7')!.text).config!;
    assert.deepEqual(score.verdict, { format: 'json', fields: { score: 'result', steps: 'steps' }, structured: true });
    assert.deepEqual(score.scale, { min: 1, max: 7, continuous: true });
    assert.equal(score.pass_threshold, 5.5);
    assert.deepEqual({ name: score.model.name, temperature: score.model.temperature, max_tokens: score.model.max_tokens }, { name: 'o4-mini', temperature: 0, max_tokens: 512 });
    const warnings = result.problems.filter((p) => p.where === 'testing_criteria[1]').map((p) => p.message).join(' | ');
    assert.match(warnings, /developer message; it is sent as the system message/);
    assert.match(warnings, /sampling_params top_p: 1, seed: 42 not carried over/);
  });

  it('imports a bare grader object, and refuses what a template cannot send, saying why', () => {
    const grader = (over: Record<string, unknown>) => JSON.stringify({ type: 'label_model', name: 'g', model: 'm', labels: ['yes', 'no'], passing_labels: ['yes'], input: [{ role: 'user', content: 'Is {{sample.output_text}} polite?' }], ...over });
    assert.equal(importOpenAIEvals(grader({})).templates.length, 1);
    const refused = (over: Record<string, unknown>) => importOpenAIEvals(grader(over)).problems.filter((p) => p.severity === 'error').map((p) => p.message).join(' ');
    assert.match(refused({ input: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }] }), /assistant message/);
    assert.match(refused({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] }), /images and audio cannot be sent/);
    assert.match(refused({ input: [{ role: 'user', content: 'Tools: {{sample.output_tools}}' }] }), /needs the sampled model's output_tools/);
    assert.match(refused({ input: [{ role: 'user', content: '{{ item }}' }] }), /not \{\{item.<field>\}\} or \{\{sample.output_text\}\}/);
    assert.match(refused({ passing_labels: ['maybe'] }), /passing label "maybe" is not one of the labels/);
    assert.match(refused({ input: [{ role: 'user', content: '# System\nYou are…' }] }), /"# System" heading/);
    assert.match(importOpenAIEvals('{"type": "label_model"').problems[0]!.message, /not JSON/);
  });

  describe('end to end through the CLI', () => {
    const ws = cliWorkspace();

    it('imports the label_model grader, runs it against the fake server, and calibrates its labels', async () => {
      const imported = await ws.cli(['import', 'openai-evals', FIXTURE, '--out', 'judges']);
      assert.equal(imported.code, EXIT_OK, imported.io.err);
      assert.match(imported.io.err, /"Mentions ticket" \(string_check\): not a model grader/);
      // The judge calls a reply a violation when it promises a refund, compliant otherwise.
      // It answers as OpenAI documents a model grader's reply: steps, then the result.
      ws.fake.rules = [(r) => reply({ steps: [{ description: 'Compared the reply with the policy', conclusion: 'checked' }], result: /Agent replied: Yes/.test(r.prompt) ? 'violation' : 'compliant' })];
      const data = writeJsonl(path.join(ws.dir, 'support.jsonl'), [
        { question: 'Refund after 40 days?', policy: 'Refunds within 30 days.', response: 'Yes, here is your refund.', 'policy_compliance/human_label': 'violation' },
        { question: 'Refund after 10 days?', policy: 'Refunds within 30 days.', response: 'Sure, within policy.', 'policy_compliance/human_label': 'compliant' },
        { question: 'Refund after 35 days?', policy: 'Refunds within 30 days.', response: 'No, but I can offer credit.', 'policy_compliance/human_label': 'minor issue' },
      ]);
      const out = path.join(ws.dir, 'results.jsonl');
      const run = await ws.cli(['run', 'judges/Policy-compliance.judge', '--data', data, '--base-url', ws.fake.baseURL, '--model', 'judge-m', '--out', out]);
      assert.equal(run.code, EXIT_OK, run.io.err);
      assert.equal(ws.fake.requests[0]!.body?.response_format?.type, 'json_schema');
      const sent = ws.fake.requests[0]!.body?.response_format?.json_schema?.schema as { properties?: Record<string, { enum?: string[] }> } | undefined;
      assert.deepEqual(Object.keys(sent?.properties ?? {}), ['steps', 'result']);
      assert.deepEqual(sent?.properties?.result?.enum, ['compliant', 'minor issue', 'violation']);
      assert.equal(ws.fake.requests[0]!.body?.messages?.[0]?.role, 'system');
      const lines = readJsonl(out).sort((a, b) => (a._row as number) - (b._row as number));
      assert.deepEqual(lines.map((l) => [l['policy_compliance/label'], l['policy_compliance/passed']]), [['violation', false], ['compliant', true], ['compliant', true]]);
      assert.equal(lines[0]!['policy_compliance/justification'], '1. Compared the reply with the policy — checked');
      const cal = await ws.cli(['calibrate', out, '--metric', 'policy_compliance', '--template', 'judges/Policy-compliance.judge', '--json']);
      assert.equal(cal.code, EXIT_OK, cal.io.err);
      const report = JSON.parse(cal.io.out) as { kind: string; labels: string[]; accuracy: number; pass_fail: { accuracy: number; passing_labels: string[] } };
      assert.equal(report.kind, 'categorical');
      assert.deepEqual(report.labels, ['compliant', 'minor issue', 'violation']);
      assert.equal(report.accuracy, 2 / 3);
      assert.deepEqual(report.pass_fail.passing_labels, ['compliant', 'minor issue']);
      assert.equal(report.pass_fail.accuracy, 1, '"minor issue" passes like "compliant"');
    });
  });
});
