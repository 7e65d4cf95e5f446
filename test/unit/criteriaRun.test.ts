// Multi-criterion judging end to end: `judge-studio run` through the CLI against the local fake
// server, the columns it writes, replies that leave out, add or misscore a criterion, and
// `calibrate` per criterion, checked against test/reference/criteria_reference.py.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { EXIT_FINDINGS, EXIT_OK } from '../../src/cli/io';
import { roundOverall, weightedScore } from '../../src/core/judge/strategies/criteria';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { CASES, CRITERIA_DIR, criteriaJudge, criteriaReply, fixtureScores, isRepair } from '../support/criteriaFixtures';
import { captureIO, readJsonl, tempDir } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REF = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'reference', 'criteria_reference.json'), 'utf8')) as {
  rows: { id: string; score: number; score_rounded: number }[];
  overall: Record<string, unknown>;
  criteria: Record<string, Record<string, unknown>>;
  most_disagreement: string;
};
const NAMES = ['accuracy', 'clarity', 'depth'];

function close(actual: unknown, expected: unknown, what: string, within = 1e-9): void {
  if (typeof expected === 'number' && typeof actual === 'number') assert.ok(Math.abs(actual - expected) < within, `${what}: ${actual} vs ${expected}`);
  else assert.deepEqual(actual, expected, what);
}

describe('weighted overall score', () => {
  const criteria = (w: number[]) => NAMES.map((name, i) => ({ name, description: 'x', weight: w[i]! }));

  it('normalises the weights: 0.4/0.2/0.2 gives what 0.5/0.25/0.25 gives', () => {
    const scores = { accuracy: 4, clarity: 2, depth: 5 };
    assert.equal(weightedScore(criteria([0.4, 0.2, 0.2]), scores), weightedScore(criteria([0.5, 0.25, 0.25]), scores));
    assert.equal(weightedScore(criteria([0.5, 0.25, 0.25]), scores), 3.75);
  });

  it('rounds half away from zero for the integer view, also after float error', () => {
    assert.deepEqual([2.5, 3.5, 2.4999999999, 3.49, 4.75].map(roundOverall), [3, 4, 3, 3, 5]);
  });
});

describe('multi-criterion judging through the CLI', () => {
  let fake: FakeOpenAI;
  let dir: string;

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
  });
  afterEach(() => fake.close());

  async function cli(args: string[]) {
    const io = captureIO(ROOT, {});
    const code = await main(args, io);
    return { code, io };
  }

  async function run(extra: string[] = []) {
    const out = path.join(dir, 'q.results.jsonl');
    const data = path.join(CRITERIA_DIR, 'cases.jsonl');
    const r = await cli(['run', path.join(CRITERIA_DIR, 'q.judge'), '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--no-cache', ...extra]);
    return { ...r, out, lines: readJsonl(out).sort((a, b) => Number(a._row) - Number(b._row)) };
  }

  it("writes each criterion's score, evidence, justification and improvement, and the weighted overall the Python reference computes", async () => {
    fake.rules = [criteriaJudge((response) => criteriaReply(fixtureScores(response)))];
    const { code, io, lines } = await run();
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(lines.length, CASES.length);
    for (const line of lines) {
      const ref = REF.rows.find((r) => r.id === line.id)!;
      close(line['q/score'], ref.score, `${ref.id} q/score`);
      assert.equal(line['q/score_rounded'], ref.score_rounded, `${ref.id} q/score_rounded`);
      const judge = line.judge as Record<string, number>;
      for (const n of NAMES) assert.equal(line[`q/score_${n}`], judge[n]);
      const detail = line['q/criteria'] as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(detail), NAMES);
      assert.deepEqual(detail.accuracy, { score: judge.accuracy, weight: 0.5, evidence: ['evidence for accuracy'], justification: `why accuracy is ${judge.accuracy}`, improvement: 'improve accuracy' });
      assert.equal(line['q/justification'], `summary of ${judge.accuracy}/${judge.clarity}/${judge.depth}`);
      assert.equal(line['q/confidence'], null);
      assert.equal(line['q/error'], undefined);
    }
    // The structured-output schema asks, per criterion, for reasoning before the score.
    const schema = fake.chats[0]!.body!.response_format!.json_schema!.schema as { properties: { criteria: { properties: Record<string, { properties: object; required: string[]; additionalProperties: boolean }>; additionalProperties: boolean; required: string[] } }; required: string[] };
    assert.deepEqual(Object.keys(schema.properties), ['criteria', 'summary']);
    const crit = schema.properties.criteria;
    assert.deepEqual(Object.keys(crit.properties), NAMES);
    assert.deepEqual(crit.required, NAMES);
    assert.equal(crit.additionalProperties, false);
    assert.deepEqual(Object.keys(crit.properties.clarity!.properties), ['evidence', 'justification', 'score', 'improvement']);
    assert.equal(crit.properties.clarity!.additionalProperties, false);
  });

  it('treats a reply that leaves out a criterion as invalid: one repair, then a failed row with no score', async () => {
    fake.rules = [criteriaJudge((response) => criteriaReply(fixtureScores(response), (c) => delete c.depth))];
    const { code, lines } = await run(['--rows', '1-2']);
    assert.equal(code, EXIT_FINDINGS);
    assert.equal(fake.chats.length, 4, 'a call and one repair per row');
    const repair = fake.chats.find(isRepair)!;
    assert.match(repair.body!.messages!.at(-1)!.content, /criteria\.depth/);
    for (const line of lines) {
      assert.equal(line['q/error_kind'], 'invalid-reply');
      assert.equal(line['q/score'], null);
      assert.equal(line['q/score_rounded'], null);
      for (const n of NAMES) assert.equal(line[`q/score_${n}`], null, 'no partial score');
    }
  });

  it('rejects a criterion the template does not declare, and keeps the repaired reply', async () => {
    fake.rules = [
      criteriaJudge((response, _m, r) =>
        criteriaReply(fixtureScores(response), isRepair(r) ? undefined : (c) => (c.tone = { evidence: [], justification: 'x', score: 3, improvement: 'y' })),
      ),
    ];
    const { code, io, lines } = await run(['--rows', '1']);
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(fake.chats.length, 2);
    assert.match(fake.chats[1]!.body!.messages!.at(-1)!.content, /tone/);
    assert.equal(lines[0]!['q/score'], REF.rows[0]!.score);
    assert.ok(!('tone' in (lines[0]!['q/criteria'] as object)));
  });

  it('rejects a criterion score outside the scale', async () => {
    fake.rules = [criteriaJudge((response) => criteriaReply({ ...fixtureScores(response), clarity: 6 }))];
    const { code, lines } = await run(['--rows', '1']);
    assert.equal(code, EXIT_FINDINGS);
    assert.match(String(lines[0]!['q/error']), /criteria\.clarity\.score/);
  });

  it('calibrates each criterion and the overall as the Python reference does, and names the criterion humans disagree with most', async () => {
    fake.rules = [criteriaJudge((response) => criteriaReply(fixtureScores(response)))];
    const { out } = await run();
    const { code, io } = await cli(['calibrate', out, '--metric', 'q', '--json']);
    assert.equal(code, EXIT_OK, io.err);
    const report = JSON.parse(io.out) as Record<string, unknown> & { criteria: Record<string, Record<string, unknown>>; criteria_summary: Record<string, unknown>[]; most_disagreement: { criterion: string } };
    const figures = ['n', 'labels', 'confusion_matrix', 'accuracy', 'balanced_accuracy', 'balanced_f1', 'cohen_kappa', 'quadratic_weighted_kappa', 'spearman', 'kendall_tau'];
    for (const f of figures) close(report[f], REF.overall[f], `overall ${f}`);
    assert.deepEqual(Object.keys(report.criteria), NAMES);
    for (const n of NAMES) {
      for (const f of figures) close(report.criteria[n]![f], REF.criteria[n]![f], `${n} ${f}`);
      const s = report.criteria_summary.find((x) => x.criterion === n)!;
      // The reference stores these two at 6 places; the report keeps full precision.
      close(s.mean_abs_diff, REF.criteria[n]!.mean_abs_diff, `${n} mean_abs_diff`, 5e-7);
      close(s.mean_diff, REF.criteria[n]!.mean_diff, `${n} mean_diff`, 5e-7);
    }
    assert.equal(report.most_disagreement.criterion, REF.most_disagreement);
    const text = await cli(['calibrate', out, '--metric', 'q']);
    assert.match(text.io.out, /Most disagreement: clarity .*judge scores higher than humans/);
  });

  it('reports the criteria alone when humans labelled only the criteria', async () => {
    fake.rules = [criteriaJudge((response) => criteriaReply(fixtureScores(response)))];
    const { out, lines } = await run();
    const stripped = path.join(dir, 'criteria-only.jsonl');
    fs.writeFileSync(stripped, lines.map((l) => JSON.stringify({ ...l, 'q/human_rating': undefined })).join('\n') + '\n');
    assert.ok(fs.existsSync(out));
    const { code, io } = await cli(['calibrate', stripped, '--metric', 'q', '--json']);
    assert.equal(code, EXIT_OK, io.err);
    const report = JSON.parse(io.out) as { overall: null; overall_error: string; most_disagreement: { criterion: string }; criteria: Record<string, { n: number }> };
    assert.equal(report.overall, null);
    assert.match(report.overall_error, /q\/human_rating/);
    assert.equal(report.criteria.clarity?.n, REF.criteria.clarity!.n);
    assert.equal(report.most_disagreement.criterion, 'clarity');
  });
});
