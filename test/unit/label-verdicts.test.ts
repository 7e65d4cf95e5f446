// A categorical verdict (`labels:`, `m/label`) is a verdict everywhere in the editor, as a score
// and a pairwise choice are: the end-of-run summary, the Results Viewer, the run view and the
// calibration view, on the results file `judge-studio run` wrote for an imported OpenAI
// `label_model` grader (test/fixtures/import/openai_eval.json, "Policy compliance").
import * as assert from 'node:assert/strict';
import { parseDataset } from '../../src/core/dataset';
import { templateVerdictKind } from '../../src/core/results/verdict';
import { parseTemplate } from '../../src/core/template';
import { batchEndMessage } from '../../src/extension/run/model/batchEnd';
import { summarize, summaryLines } from '../../src/extension/run/model/summary';
import { isResultsFile } from '../../src/extension/results/model/detect';
import { metricsOf, ResultsTable } from '../../src/extension/results/model/table';
import { resultsSummarySchema, type ResultsQuery } from '../../src/protocol/results';
import { inputRecord, metricOf, panelView, resultView, verdictText } from '../../src/extension/run/model/result';
import { runView } from '../../src/extension/run/model/view';
import { runViewSchema } from '../../src/protocol/run';
import { calibrate } from '../../src/core/calibration';
import { buildView, detectMetrics } from '../../src/extension/calibrate/model';
import { calibrationViewSchema } from '../../src/protocol/calibrate';
import { optionalSections } from '../../src/webview/lib/calibrateLayout';

const M = 'policy_compliance';
const TEMPLATE = `---
name: ${M}
kind: pointwise
labels: [compliant, minor issue, violation]
passing_labels: [compliant, minor issue]
freeform: true
verdict: json
inputs: [policy, question, response]
---
Policy: {{policy}}
Customer asked: {{question}}
Agent replied: {{response}}
`;
const config = parseTemplate(TEMPLATE).config!;

/** A line as the engine writes it for this template (completion order, as a run appends them). */
function line(row: number, question: string, human: string, label: string, passed: boolean): Record<string, unknown> {
  return {
    policy: 'Be polite.',
    question,
    response: 'An answer.',
    [`${M}/human_label`]: human,
    _row: row,
    _key: `${'0'.repeat(15)}${row}`,
    [`${M}/label`]: label,
    [`${M}/justification`]: `Row ${row} is ${label}.`,
    [`${M}/confidence`]: null,
    [`${M}/passed`]: passed,
    [`${M}/model`]: 'm',
    [`${M}/template_hash`]: 'b27cad93c5ff',
  };
}

const LINES = [
  line(2, 'Refund after 10 days?', 'compliant', 'compliant', true),
  line(3, 'Where is my order?', 'violation', 'violation', false),
  line(4, 'Hours?', 'minor issue', 'compliant', true),
  line(1, 'Refund after 40 days?', 'compliant', 'compliant', true),
];
const TEXT = `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`;

describe('label verdicts in the editor', () => {
  describe('the end-of-run summary', () => {
    const summary = () => summarize(LINES, M, templateVerdictKind(config), undefined, config.labels);

    it('counts no failed row when every row has its label, and counts each label in the template order', () => {
      const s = summary();
      assert.deepEqual(s, {
        kind: 'categorical',
        rows: 4,
        failed: 0,
        labels: [{ label: 'compliant', count: 3 }, { label: 'minor issue', count: 0 }, { label: 'violation', count: 1 }],
        passed: 3,
      });
      const lines = summaryLines(s);
      assert.equal(lines[0], '4 rows · 3 passed (75%)');
      assert.ok(lines.includes('compliant: 3 (75%) ████████████'), lines.join('\n'));
    });

    it('says nothing failed in the notification at the end of a run', () => {
      const entry = {
        v: 1 as const,
        type: 'batch' as const,
        id: 'e',
        time: '2026-01-01T00:00:00.000Z',
        template: 'Policy-compliance.judge',
        metric: M,
        kind: 'pointwise' as const,
        model: 'm',
        dataset: 'data.jsonl',
        results: '.judge-studio/results/r.jsonl',
        resumed: false,
        interrupted: false,
        rows: { judged: 4, ok: 4, failed: 0, skipped: 0, alreadyDone: 0 },
        summary: summary(),
        elapsedMs: 10,
      };
      const message = batchEndMessage(entry);
      assert.doesNotMatch(message.text, /failed/, message.text);
    });

    it('counts a row without a label as failed', () => {
      const failed = { ...LINES[0]!, [`${M}/label`]: null, [`${M}/passed`]: null, [`${M}/error`]: 'invalid reply', [`${M}/error_kind`]: 'invalid-reply' };
      const s = summarize([failed, ...LINES.slice(1)], M, 'categorical', undefined, config.labels);
      assert.equal(s.failed, 1);
      assert.equal(summaryLines(s)[0], '4 rows · 2 passed (67%) · 1 failed');
    });
  });

  describe('the Results Viewer', () => {
    const items = () => parseDataset(TEXT, 'jsonl');
    const table = () => new ResultsTable(items(), M, metricsOf(LINES));
    const all: ResultsQuery = { id: 1, filter: 'all', verdict: null, search: '', sort: 'row', descending: false, offset: 0, limit: 100 };

    it('takes the file: the label is its verdict column', () => {
      assert.deepEqual(metricsOf(LINES), [M]);
      const { _key: _k, ...withoutKey } = LINES[0]!;
      assert.ok(isResultsFile('/w/labels.jsonl', [JSON.stringify(withoutKey)]), 'a line from before _key is told by its label column');
    });

    it('shows each row with its label, the human label and whether they agree, and nothing failed', () => {
      const { rows } = table().query(all);
      assert.deepEqual(rows.map((r) => [r.row, r.verdict, r.human, r.agrees, r.failed]), [
        [1, 'compliant', 'compliant', true, false],
        [2, 'compliant', 'compliant', true, false],
        [3, 'violation', 'violation', true, false],
        [4, 'compliant', 'minor issue', false, false],
      ]);
      assert.deepEqual(table().query({ ...all, verdict: 'violation' }).rows.map((r) => r.row), [3]);
    });

    it('summarises the labels as the verdicts, with no failure', () => {
      const s = table().summary('r.jsonl');
      assert.ok(resultsSummarySchema.safeParse(s).success);
      assert.equal(s.kind, 'categorical');
      assert.deepEqual(s.verdicts, [{ label: 'compliant', count: 3 }, { label: 'violation', count: 1 }]);
      assert.deepEqual([s.failed, s.labelled, s.disagreeing], [0, 4, 1]);
    });
  });

  describe('the run view', () => {
    const recorded = (l: Record<string, unknown>) =>
      runView({
        id: 'row:4', template: { file: 'Policy-compliance.judge', metric: M, kind: 'pointwise' }, source: 'r.jsonl, row 4', note: null, model: 'm',
        time: new Date(0).toISOString(), phase: 'recorded', elapsedMs: null, passes: [], messages: [], line: l, scale: null, labels: config.labels ?? null, raw: [], canRerun: true,
      });

    it('shows the label, whether it passes and the template\'s labels, not "no verdict"', () => {
      const view = recorded(LINES[2]!);
      assert.ok(runViewSchema.safeParse(view).success, 'the view satisfies the protocol');
      assert.deepEqual(view.result, {
        kind: 'categorical',
        label: 'compliant',
        labels: ['compliant', 'minor issue', 'violation'],
        passed: true,
        justification: 'Row 4 is compliant.',
        confidence: null,
        extras: [],
      });
      assert.equal(verdictText(resultView(LINES[1]!, M)), 'violation · fail');
    });

    it('finds the metric of a line by its label column, and keeps the human label as an input', () => {
      const { [`${M}/model`]: _model, ...noModel } = LINES[0]!;
      assert.equal(metricOf(noModel), M);
      assert.equal(inputRecord(LINES[0]!, M)[`${M}/human_label`], 'compliant');
    });

    it("shows a panel's label and which judges gave it", () => {
      const judges = [{ judge: 'a', verdict: 'compliant' }, { judge: 'b', verdict: 'violation' }, { judge: 'c', verdict: 'compliant' }];
      const p = panelView({ ...LINES[0]!, [`${M}/judges`]: judges, [`${M}/panel_agreement`]: 0.667 }, M);
      assert.equal(p?.verdict, 'compliant');
      assert.deepEqual(p?.judges.map((j) => [j.verdict, j.agrees]), [['compliant', true], ['violation', false], ['compliant', true]]);
    });
  });

  describe('the calibration view', () => {
    const view = async () => {
      const outcome = await calibrate(parseDataset(TEXT, 'jsonl'), M, { passingLabels: config.passing_labels! });
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.error);
      return { report: outcome.report, view: buildView({ file: '/w/r.jsonl', display: 'r.jsonl', report: outcome.report, notes: outcome.notes, notesOmitted: outcome.notesOmitted, runView: false }) };
    };

    it('offers the metric by its label columns', () => {
      assert.deepEqual(detectMetrics(parseDataset(TEXT, 'jsonl').filter((i) => 'record' in i)), [{ metric: M, kind: 'categorical', complete: true, labelled: 4 }]);
    });

    it('has the pass/fail section calibrate prints, with its matrix and figures', async () => {
      const { report, view: v } = await view();
      assert.ok(calibrationViewSchema.safeParse(v).success, 'the view satisfies the protocol');
      const pf = report.pass_fail!;
      assert.ok(v.passFail, 'a pass/fail section');
      assert.deepEqual(v.passFail.passingLabels, ['compliant', 'minor issue']);
      assert.deepEqual([v.passFail.n, v.passFail.labels], [4, ['fail', 'pass']]);
      assert.deepEqual(v.passFail.rows.map((r) => r.cells.map((c) => c.count)), pf.confusion_matrix);
      assert.deepEqual(v.passFail.columnTotals, [1, 3]);
      assert.deepEqual(
        v.passFail.headline.map((h) => [h.key, h.value]),
        [['pass_fail.accuracy', pf.accuracy], ['pass_fail.balanced_accuracy', pf.balanced_accuracy], ['pass_fail.balanced_f1', pf.balanced_f1], ['pass_fail.cohen_kappa', pf.cohen_kappa]],
      );
      assert.equal(v.passFail.headline[0]!.value, 1);
    });

    it('draws the pass/fail section and no "Bias diagnostics" heading, which a label verdict has nothing under', async () => {
      const { view: v } = await view();
      assert.deepEqual(v.bias, []);
      assert.deepEqual(optionalSections(v), ['pass-fail']);
      assert.deepEqual(optionalSections({ ...v, passFail: null }), [], 'without passing labels neither is drawn');
    });
  });
});
