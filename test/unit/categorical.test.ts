// Categorical verdicts (`labels:`), continuous scores (`range:`) and the pass/fail view
// (`passing_labels`, `pass_threshold`): front-matter rules, the reply schema sent as structured
// output, the columns through the real engine against the fake server, samples and panels that
// need a strict majority of a label, and calibration as a nominal scale.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrateCommand } from '../../src/cli/commands/calibrate';
import { UsageError } from '../../src/cli/io';
import * as assert from 'node:assert/strict';
import { calibrate } from '../../src/core/calibration';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import type { PreparedJudge } from '../../src/core/judge/engine/prepare';
import { aggregatePanel, type JudgeVote } from '../../src/core/judge/panel/votes';
import { runJudge } from '../../src/core/judge/run/runner';
import { strategyFor } from '../../src/core/judge/strategies/strategy';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { items } from '../support/judgeFixtures';

const CORRECTNESS = `---
name: correctness
kind: pointwise
labels: [correct, partially correct, incorrect]
passing_labels: [correct]
inputs: [prompt, response, reference]
---
# Criteria
Does the response state the same facts as the reference?

# Rubric
- correct: every fact of the reference, nothing contradicting it
- partially correct: some facts, none contradicting
- incorrect: a contradiction, or none of the facts

# Evaluation steps
1. List the reference's facts.
2. Check each against the response.

Question: {{prompt}}
Reference: {{reference}}
Response: {{response}}
`;

const SCORED = `---
name: relevance
kind: pointwise
range: [0, 1]
pass_threshold: 0.7
freeform: true
verdict: json
inputs: [prompt, response]
---
Rate from 0 to 1 how relevant the answer is, as JSON {"justification", "score"}.
{{prompt}}
{{response}}
`;

const errorsOf = (text: string) => validateTemplate(text).filter((d) => d.severity === 'error').map((d) => d.message);

function prepared(text: string): PreparedJudge {
  const p = prepareJudge(text);
  assert.ok(p.ok, p.ok ? '' : JSON.stringify(p.diagnostics));
  return p.judge;
}

describe('categorical verdicts and pass/fail views', () => {
  describe('front matter', () => {
    it('accepts labels with passing labels, and a continuous range with a threshold', () => {
      assert.deepEqual(errorsOf(CORRECTNESS), []);
      assert.deepEqual(errorsOf(SCORED), []);
      const config = parseTemplate(SCORED).config!;
      assert.deepEqual(config.scale, { min: 0, max: 1, continuous: true });
      assert.equal(config.pass_threshold, 0.7);
    });

    it('refuses labels that contradict the rest of the front matter, each with what to do', () => {
      const with_ = (from: string, to: string) => errorsOf(CORRECTNESS.replace(from, to)).join(' | ');
      assert.match(with_('passing_labels: [correct]', 'passing_labels: [right]'), /"right" is not one of the labels/);
      assert.match(with_('labels: [correct, partially correct, incorrect]', 'labels: [correct, correct]'), /label "correct" is listed twice/);
      assert.match(with_('labels: [correct, partially correct, incorrect]', 'labels: [correct]'), /at least two labels/);
      assert.match(with_('kind: pointwise', 'kind: pointwise\nscale: [1, 5]'), /answers one of its `labels`, not a score/);
      assert.match(with_('kind: pointwise', 'kind: pointwise\nverdict: tagged'), /a categorical template replies in JSON/);
      assert.match(with_('passing_labels: [correct]', 'pass_threshold: 1'), /use `passing_labels` instead of `pass_threshold`/);
      assert.match(with_('labels: [correct, partially correct, incorrect]\npassing_labels: [correct]', ''), /needs a `scale`.*or `labels` for a categorical verdict/);
      assert.match(errorsOf(SCORED.replace('pass_threshold: 0.7', 'pass_threshold: 2')).join(' '), /outside the scale 0–1/);
      assert.match(errorsOf(SCORED.replace('range: [0, 1]', 'range: [0, 1]\nscale: [0, 1]')).join(' '), /keep one/);
    });

    it("reports an example whose label is not one of the template's labels", () => {
      const text = CORRECTNESS.replace('# Evaluation steps', '# Examples\n```json\n{"justification": "x", "label": "mostly right"}\n```\n\n# Evaluation steps');
      assert.deepEqual(validateTemplate(text).filter((d) => d.code === 'example-label-unknown').length, 1);
    });
  });

  describe('reply', () => {
    const config = parseTemplate(CORRECTNESS).config!;
    const strategy = strategyFor(config);

    it('asks for a justification and one of the labels, and lists them in the appended instruction', () => {
      const props = strategy.jsonSchema.properties as Record<string, { enum?: string[] }>;
      assert.deepEqual(props.label?.enum, ['correct', 'partially correct', 'incorrect']);
      assert.deepEqual(Object.keys(props), ['justification', 'label']);
      const r = renderTemplate(parseTemplate(CORRECTNESS), { prompt: 'p', response: 'r', reference: 'f' });
      assert.ok(r.ok);
      assert.match(r.prompt.messages.at(-1)!.content, /"label": Exactly one of: "correct", "partially correct", "incorrect"\./);
    });

    it('writes label and passed, never score', () => {
      const value = strategy.schema.parse({ justification: 'all facts', label: 'correct' });
      const columns = strategy.columns([strategy.merge([{ order: 'AB', reply: value }])], 1);
      assert.deepEqual(columns, { label: 'correct', justification: 'all facts', confidence: null, passed: true });
      assert.equal(strategy.schema.safeParse({ justification: 'x', label: 'Correct' }).success, false, 'labels match exactly');
    });
  });

  describe('through the engine', () => {
    let fake: FakeOpenAI;
    let lines: Record<string, unknown>[];
    beforeEach(async () => {
      fake = await FakeOpenAI.start();
      lines = [];
    });
    afterEach(() => fake.close());
    const run = (judge: PreparedJudge, records: Record<string, unknown>[], samples = 1) =>
      runJudge({
        judge,
        client: new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 2000 }),
        settings: { model: 'm', structured: 'json_schema', schemaName: judge.metric },
        items: items(records),
        write: (line) => lines.push(line),
        retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
        samples,
      });

    it('sends the labels as a structured-output enum and records label and passed', async () => {
      fake.rules = [(r) => reply({ justification: 'one fact missing', label: /Paris/.test(r.prompt) ? 'partially correct' : 'correct' })];
      await run(prepared(CORRECTNESS), [
        { prompt: 'Capital?', response: 'Paris', reference: 'Paris, on the Seine' },
        { prompt: 'Sum?', response: '4', reference: '4' },
      ]);
      const schema = fake.requests[0]!.body?.response_format?.json_schema?.schema as { properties: { label: { enum: string[] } } };
      assert.deepEqual(schema.properties.label.enum, ['correct', 'partially correct', 'incorrect']);
      const byRow = (n: number) => lines.find((l) => l._row === n)!;
      assert.equal(byRow(1)['correctness/label'], 'partially correct');
      assert.equal(byRow(1)['correctness/passed'], false);
      assert.equal(byRow(2)['correctness/label'], 'correct');
      assert.equal(byRow(2)['correctness/passed'], true);
      assert.equal(byRow(2)['correctness/score'], undefined);
    });

    it('repairs a label that is not on the list once, then fails the row with no label', async () => {
      fake.rules = [() => reply({ justification: 'close enough', label: 'mostly correct' })];
      const { stats } = await run(prepared(CORRECTNESS), [{ prompt: 'p', response: 'r', reference: 'f' }]);
      assert.equal(fake.requests.length, 2);
      assert.match(fake.requests[1]!.body!.messages!.at(-1)!.content, /label/);
      assert.equal(stats.failed, 1);
      assert.equal(lines[0]!['correctness/label'], null);
      assert.equal(lines[0]!['correctness/passed'], null);
      assert.equal(lines[0]!['correctness/error_kind'], 'invalid-reply');
    });

    it('takes a strict majority of samples, and fails a split as no-majority', async () => {
      let n = 0;
      const order = ['correct', 'incorrect', 'correct', 'correct', 'incorrect', 'partially correct'];
      fake.rules = [() => reply({ justification: 'j', label: order[n++ % order.length] })];
      const judge = prepared(CORRECTNESS);
      await run(judge, [{ prompt: 'p', response: 'r', reference: 'f' }], 3);
      assert.equal(lines[0]!['correctness/label'], 'correct');
      assert.equal(lines[0]!['correctness/sample_agreement'], 0.666667);
      assert.deepEqual([...(lines[0]!['correctness/samples'] as string[])].sort(), ['correct', 'correct', 'incorrect']);
      lines.length = 0;
      await run(judge, [{ prompt: 'p2', response: 'r', reference: 'f' }], 3);
      assert.equal(lines[0]!['correctness/label'], null);
      assert.equal(lines[0]!['correctness/error_kind'], 'no-majority');
      assert.match(String(lines[0]!['correctness/error']), /no strict majority of the 3 samples/);
    });

    it('accepts a fractional score on a range and applies the threshold', async () => {
      fake.rules = [(r) => reply({ justification: 'j', score: /close/.test(r.prompt) ? 0.7 : 0.65 })];
      await run(prepared(SCORED), [{ prompt: 'q', response: 'close' }, { prompt: 'q', response: 'far' }]);
      const byRow = (n: number) => lines.find((l) => l._row === n)!;
      assert.equal(byRow(1)['relevance/score'], 0.7);
      assert.equal(byRow(1)['relevance/passed'], true, 'score >= threshold passes');
      assert.equal(byRow(2)['relevance/passed'], false);
    });
  });

  it('lets a panel decide a label by strict majority of the configured panel', () => {
    const vote = (judge: string, verdict: string | null): JudgeVote => ({ judge, verdict, confidence: null, position_consistent: null, error_kind: verdict === null ? 'timeout' : null, ...(verdict ? { justification: `${judge}: ${verdict}` } : {}) });
    const shape = { kind: 'pointwise' as const, binary: false, categorical: true, quorum: 2 };
    const agreed = aggregatePanel(shape, [vote('a', 'correct'), vote('b', 'incorrect'), vote('c', 'correct')]);
    assert.ok(agreed.ok);
    assert.equal(agreed.columns.label, 'correct');
    assert.equal(agreed.columns.score, undefined);
    const split = aggregatePanel(shape, [vote('a', 'correct'), vote('b', 'incorrect'), vote('c', null)]);
    assert.equal(split.ok, false);
    assert.equal(!split.ok && split.kind, 'no-majority');
  });

  it('calibrates labels as a nominal scale, sorted lexically, with a pass/fail view', async () => {
    const pairs = [['correct', 'correct'], ['correct', 'correct'], ['incorrect', 'incorrect'], ['partial', 'correct'], ['incorrect', 'partial'], ['partial', 'partial'], ['correct', 'incorrect'], ['incorrect', 'incorrect']];
    const rows = pairs.map(([h, j], i) => ({ row: i + 1, line: i + 1, record: { 'c/human_label': h, 'c/label': j } }));
    const outcome = await calibrate(rows, 'c', { passingLabels: ['correct'] });
    assert.ok(outcome.ok);
    const r = outcome.report;
    assert.equal(r.kind, 'categorical');
    assert.deepEqual(r.labels, ['correct', 'incorrect', 'partial']);
    assert.deepEqual(r.confusion_matrix, [[2, 1, 0], [0, 2, 1], [1, 0, 1]]);
    // Reference figures from the definitions (stdlib Python over the raw pairs, as test/reference does).
    assert.equal(r.accuracy, 0.625);
    assert.ok(Math.abs(r.cohen_kappa! - 0.428571428571) < 1e-9);
    assert.ok(Math.abs(r.balanced_accuracy! - 0.611111111111) < 1e-9);
    assert.ok(Math.abs(r.balanced_f1! - 0.625) < 1e-9);
    assert.equal(r.quadratic_weighted_kappa, undefined, 'no ordinal figures for a nominal scale');
    assert.equal(r.spearman, undefined);
    assert.deepEqual(r.guidance.primary, ['balanced_accuracy', 'cohen_kappa', 'per_class.f1']);
    assert.deepEqual(r.pass_fail?.labels, ['fail', 'pass']);
    assert.deepEqual(r.pass_fail?.confusion_matrix, [[4, 1], [1, 2]]);
    assert.equal(r.pass_fail?.accuracy, 0.75);
    assert.ok(Math.abs(r.pass_fail!.cohen_kappa! - 0.466666666667) < 1e-9);
  });
});

  it('through the CLI: keeps the labels of a results file, shows the pass/fail view, and refuses a label the template does not have', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-categorical-'));
    try {
      fs.writeFileSync(path.join(dir, 'correctness.judge'), CORRECTNESS);
      const line = (row: number, human: string, judge: string) => JSON.stringify({ _row: row, prompt: `q${row}`, 'correctness/label': judge, 'correctness/human_label': human });
      const write = (lines: string[]) => fs.writeFileSync(path.join(dir, 'r.jsonl'), lines.join('\n') + '\n');
      let stdout = '';
      const io = { stdout: (x: string) => void (stdout += x), stderr: () => undefined, cwd: dir, env: {} };
      write([line(1, 'correct', 'correct'), line(2, 'incorrect', 'correct'), line(3, 'partially correct', 'partially correct')]);
      assert.equal(await calibrateCommand(['r.jsonl', '--metric', 'correctness', '--template', 'correctness.judge', '--json'], io), 0);
      const report = JSON.parse(stdout) as { kind: string; n: number; labels: string[]; pass_fail?: { n: number } };
      assert.equal(report.kind, 'categorical');
      assert.equal(report.n, 3);
      assert.deepEqual(report.labels, ['correct', 'incorrect', 'partially correct']);
      assert.equal(report.pass_fail?.n, 3);
      write([line(1, 'correct', 'correct'), line(2, 'mostly right', 'correct')]);
      await assert.rejects(calibrateCommand(['r.jsonl', '--metric', 'correctness', '--template', 'correctness.judge'], io), (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, /^r\.jsonl: row 2 \(line 2\): "correctness\/human_label" is "mostly right", not one of the labels of correctness\.judge \(correct, partially correct, incorrect\)/);
        return true;
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
