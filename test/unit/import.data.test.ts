// `import-data`: each benchmark format, from a small fixture written in its published format, round
// trips into rows with the fields a template needs, the human preference in Vertex AI's column and
// every annotator's vote in the labels file; calibrate --labels then reports the annotators'
// agreement next to the judge's.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { importData, type DataImportOptions } from '../../src/core/import/data/importData';
import type { DataFormat } from '../../src/core/import/data/benchmarks';
import { parseLabels } from '../../src/core/labels';
import { rowKey } from '../../src/core/results';
import { cliWorkspace } from '../support/cliWorkspace';
import { readJsonl } from '../support/judgeFixtures';

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/import/data');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const opts = (over: Partial<DataImportOptions> = {}): DataImportOptions => ({ metric: 'm', sourceName: 'fixture', time: '2026-12-01T00:00:00.000Z', ...over });
const run = (format: DataFormat, file: string, over: Partial<DataImportOptions> = {}) => importData(format, fixture(file), opts(over));

describe('import-data', () => {
  it('judgebench: question and both responses, "A>B" as A and "B>A" as B; a label outside the format is skipped with its line', () => {
    const r = run('judgebench', 'judgebench.jsonl');
    assert.deepEqual(r.rows.map((x) => [x.prompt, x.response_a, x.response_b, x['m/human_pairwise_choice'], x.pair_id]), [
      ['A tenant withholds rent over repairs. Which doctrine applies?', 'Constructive eviction, if the defect makes the premises unusable.', 'Adverse possession.', 'A', 'jb-001'],
      ['Return the sum of a list in Python.', 'def f(xs): return max(xs)', 'def f(xs): return sum(xs)', 'B', 'jb-002'],
    ]);
    assert.deepEqual(r.problems.map((p) => [p.severity, p.where]), [['error', 'line 3']]);
    assert.match(r.problems[0]!.message, /"label" is "A>>B", not "A>B" or "B>A"/);
  });

  it('pandalm: every annotator a vote (0 = tie, 1, 2), the majority in the row, none when all three differ, NaN read as empty', () => {
    const r = run('pandalm', 'pandalm.json');
    assert.deepEqual(r.rows.map((x) => x['m/human_pairwise_choice'] ?? null), ['A', 'TIE', null, 'B']);
    assert.equal(r.unlabelled, 1);
    assert.deepEqual(r.annotators, ['pandalm:annotator1', 'pandalm:annotator2', 'pandalm:annotator3']);
    assert.equal(r.labels.length, 12);
    assert.deepEqual(r.rows[2], { prompt: 'Summarise in five words.', input: 'The meeting moved to Tuesday because the room was booked.', response_a: 'Meeting moved; room was booked.', response_b: 'Meeting moved to Tuesday, room booked.', idx: 2, motivation_app: 'Summaries', cmp_key: 'model-q_model-r' });
    // PandaLM's file writes an empty input as NaN (Python's JSON); it is read as an empty input.
    assert.equal(r.rows[1]!.input, '');
    assert.deepEqual(r.problems.map((p) => [p.severity, p.message]), [['warning', "1 value(s) written as NaN or Infinity (Python's JSON, not JSON) read as null"]]);
    assert.equal(r.labels[0]!._key, rowKey(r.rows[0]!, ['input', 'prompt', 'response_a', 'response_b']));
    assert.deepEqual(r.labels[0]!.fields, ['input', 'prompt', 'response_a', 'response_b']);
  });

  it('mtbench-human: one row per pair and turn, each judge a vote, the judged turn as prompt and responses', () => {
    const r = run('mtbench-human', 'mtbench_human.jsonl');
    assert.deepEqual(r.rows.map((x) => [x.question_id, x.turn, x['m/human_pairwise_choice'] ?? null]), [[101, 1, 'A'], [101, 2, 'A'], [102, 1, null]]);
    assert.equal(r.rows[1]!.prompt, 'Now make it rainy-day friendly.');
    assert.equal(r.rows[1]!.response_a, 'Visit the Gulbenkian museum and the aquarium.');
    assert.equal(r.rows[1]!.response_b, 'Stay at the beach with an umbrella.');
    assert.deepEqual(r.labels.filter((l) => l._key === rowKey(r.rows[0]!, r.keyFields)).map((l) => [l.annotator, l.label]), [['mtbench:expert_1', 'A'], ['mtbench:expert_2', 'A'], ['mtbench:author_3', 'TIE']]);
  });

  it('multi-annotator: the chosen dimension of every annotation, renamed fields, and the aggregate asked for', () => {
    const base = { dimension: 'coherence', promptField: 'dialogue', responseField: 'summary' };
    const majority = run('multi-annotator', 'dialsumm.jsonl', base);
    assert.equal(majority.kind, 'pointwise');
    assert.deepEqual(majority.rows.map((x) => x['m/human_rating'] ?? null), [5, 2, null]);
    assert.deepEqual(Object.keys(majority.rows[0]!), ['prompt', 'response', 'model_id', 'm/human_rating']);
    const mean = run('multi-annotator', 'dialsumm.jsonl', { ...base, aggregate: 'mean' });
    assert.deepEqual(mean.rows.map((x) => x['m/human_rating']), [5, 8 / 3, 4]);
    assert.deepEqual(run('multi-annotator', 'dialsumm.jsonl', { ...base, aggregate: 'median' }).rows.map((x) => x['m/human_rating']), [5, 2, 4]);
    assert.deepEqual(majority.labels.slice(0, 3).map((l) => [l.annotator, l.label]), [['annotator1', 5], ['annotator2', 5], ['annotator3', 5]]);
    const missing = run('multi-annotator', 'dialsumm.jsonl', { ...base, dimension: 'coherance' });
    assert.match(missing.problems.map((p) => p.message).join(' '), /no annotation has a "coherance" rating/);
  });

  describe('through the CLI', () => {
    const ws = cliWorkspace();
    const JUDGE = `---
name: pandalm_judge
kind: pairwise
freeform: true
verdict: tagged
inputs: [prompt, input, response_a, response_b]
---
Instruction: {{prompt}}
Input: {{input}}
[A] {{response_a}}
[B] {{response_b}}
Answer [[A]] or [[B]], or [[C]] for a tie.
`;

    it('writes rows and labels keyed on the template, and calibrate --labels reports the annotators\' agreement next to the judge\'s', async () => {
      fs.writeFileSync(path.join(ws.dir, 'judge.judge'), JUDGE);
      const imported = await ws.cli(['import-data', 'pandalm', path.join(FIXTURES, 'pandalm.json'), '--out', 'pandalm.jsonl', '--labels', 'pandalm.labels.jsonl', '--template', 'judge.judge']);
      assert.equal(imported.code, EXIT_OK, imported.io.err);
      assert.match(imported.io.err, /4 row\(s\) with "pandalm_judge\/human_pairwise_choice" \(1 without one: their annotators tied\); 3 annotator\(s\), 12 label\(s\)/);
      // The judge picks the response shown first that is not a single word, else the other one.
      ws.fake.rules = [(r) => ({ reply: /\[A\] \S+ \S+/.test(r.prompt) ? 'A reads better. [[A]]' : 'B. [[B]]' })];
      const run1 = await ws.cli(['run', 'judge.judge', '--data', 'pandalm.jsonl', '--base-url', ws.fake.baseURL, '--model', 'm', '--out', 'results.jsonl']);
      assert.equal(run1.code, EXIT_OK, run1.io.err);
      const cal = await ws.cli(['calibrate', 'results.jsonl', '--metric', 'pandalm_judge', '--labels', 'pandalm.labels.jsonl', '--json']);
      assert.equal(cal.code, EXIT_OK, cal.io.err);
      const report = JSON.parse(cal.io.out) as { n: number; human_labels: { joined: number; tied: number; annotators: string[]; agreement: { krippendorff_alpha: { nominal: number } } } };
      assert.equal(report.human_labels.joined, 3);
      assert.equal(report.human_labels.tied, 1);
      assert.deepEqual(report.human_labels.annotators, ['pandalm:annotator1', 'pandalm:annotator2', 'pandalm:annotator3']);
      // Krippendorff's alpha (nominal) over the fixture's votes, from the definition (stdlib Python).
      assert.ok(Math.abs(report.human_labels.agreement.krippendorff_alpha.nominal - 0.180851063830) < 1e-9);
      assert.equal(readJsonl(path.join(ws.dir, 'results.jsonl')).length, 4);
      assert.deepEqual(parseLabels(fs.readFileSync(path.join(ws.dir, 'pandalm.labels.jsonl'), 'utf8')).skipped, []);
    });

    it('refuses a template of the other kind, a missing metric, and an existing file unless --force', async () => {
      fs.writeFileSync(path.join(ws.dir, 'point.judge'), '---\nname: p\nkind: pointwise\nscale: [1, 5]\nfreeform: true\nverdict: tagged\n---\n{{response}} [[N]]\n');
      assert.equal((await ws.cli(['import-data', 'llmbar', path.join(FIXTURES, 'pandalm.json'), '--out', 'x.jsonl', '--template', 'point.judge'])).code, EXIT_USAGE);
      assert.equal((await ws.cli(['import-data', 'llmbar', path.join(FIXTURES, 'pandalm.json'), '--out', 'x.jsonl'])).code, EXIT_USAGE);
      assert.equal((await ws.cli(['import-data', 'multi-annotator', path.join(FIXTURES, 'dialsumm.jsonl'), '--out', 'x.jsonl', '--metric', 'c'])).code, EXIT_USAGE, '--dimension is required');
      const first = await ws.cli(['import-data', 'judgebench', path.join(FIXTURES, 'judgebench.jsonl'), '--out', 'jb.jsonl', '--metric', 'jb']);
      assert.equal(first.code, EXIT_FINDINGS, 'one record was skipped');
      assert.equal((await ws.cli(['import-data', 'judgebench', path.join(FIXTURES, 'judgebench.jsonl'), '--out', 'jb.jsonl', '--metric', 'jb'])).code, EXIT_USAGE);
      assert.equal((await ws.cli(['import-data', 'judgebench', path.join(FIXTURES, 'judgebench.jsonl'), '--out', 'jb.jsonl', '--metric', 'jb', '--force'])).code, EXIT_FINDINGS);
    });
  });
});
