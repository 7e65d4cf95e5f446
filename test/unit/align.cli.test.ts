// Issue #24's promises, driven through the real CLI, the openai SDK and HTTP to the local fake
// server: a systematic judge error fixable by examples yields a significant examples candidate
// named best; noise yields no best and flags the candidates that only fit train; no held-out row
// reaches a candidate; the budget is never exceeded; bad input exits 2.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alignCommand } from '../../src/cli/commands/align';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../../src/cli/io';
import { loadLabelled, splitRows, type AlignReport } from '../../src/core/align';
import { parseDataset } from '../../src/core/dataset';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import { authorModel, caseKey, noisyJudge, shortAnswersTruth, terseBiasedJudge } from '../support/alignFixtures';
import { FakeOpenAI, reply, type FakeRule } from '../support/fakeOpenAI';
import { captureIO, PAIRWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const TEMPLATE = fs.readFileSync(path.join(EXAMPLES, 'short_answers.judge'), 'utf8');
const DATA = fs.readFileSync(path.join(EXAMPLES, 'short_answers.jsonl'), 'utf8');

describe('judge-studio align (through the local fake server)', () => {
  let fake: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'short_answers.judge'), TEMPLATE);
    fs.writeFileSync(path.join(dir, 'short_answers.jsonl'), DATA);
    fake = await FakeOpenAI.start({ rules: [authorModel(), terseBiasedJudge(shortAnswersTruth())] });
  });
  afterEach(() => fake.close());

  async function align(args: string[]): Promise<{ code: number; report: AlignReport | undefined; err: string; out: string }> {
    const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
    let code: number;
    try {
      code = await alignCommand([...args, '--base-url', fake.baseURL, '--model', 'fake-judge'], io);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      return { code: EXIT_USAGE, report: undefined, err: e.message, out: io.out };
    }
    const report = args.includes('--json') ? (JSON.parse(io.out) as AlignReport) : undefined;
    return { code, report, err: io.err, out: io.out };
  }

  async function heldout(dataFile: string, seed = 1): Promise<{ keys: Set<string>; texts: string[]; trainTexts: Set<string> }> {
    const prepared = prepareJudge(fs.readFileSync(path.join(dir, 'short_answers.judge'), 'utf8'));
    if (!prepared.ok) throw new Error('template');
    const j = prepared.judge;
    const loaded = await loadLabelled(parseDataset(fs.readFileSync(dataFile, 'utf8'), 'jsonl'), { metric: j.metric, kind: j.config.kind, keyFields: j.keyFields });
    const split = splitRows(loaded.rows, 0.5, seed, j.metric);
    if (!split.ok) throw new Error(split.error);
    const fieldsOf = (rows: typeof split.split.train) => rows.flatMap((r) => j.keyFields.map((f) => String(r.record[f])));
    return { keys: new Set(split.split.heldout.map((r) => r.key)), texts: fieldsOf(split.split.heldout), trainTexts: new Set(fieldsOf(split.split.train)) };
  }

  it('finds an examples candidate whose held-out gain is significant, writes it and names it best', async () => {
    const { code, report, err } = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json']);
    assert.equal(code, EXIT_OK, err);
    assert.ok(report);
    assert.deepEqual(Object.keys(report).slice(0, 7), ['metric', 'kind', 'template', 'template_hash', 'model', 'split', 'baseline']);
    assert.deepEqual(report.split, { seed: 1, train: 20, heldout: 20, share: 0.5 });
    assert.ok(report.baseline.heldout && report.baseline.heldout.accuracy !== null && report.baseline.heldout.accuracy < 0.8, `baseline held-out ${report.baseline.heldout?.accuracy}`);
    const best = report.candidates.find((c) => c.id === report.best);
    assert.ok(best, `best: ${report.best}`);
    assert.equal(best.kind, 'examples');
    assert.equal(best.heldout?.accuracy, 1);
    assert.ok(best.delta && best.delta.ci && best.delta.ci[0] > 0, `interval ${JSON.stringify(best.delta)}`);
    assert.ok(best.mcnemar_p !== null && best.mcnemar_p < 0.05, `p ${best.mcnemar_p}`);
    assert.equal(best.overfit, false);
    assert.ok(best.calls > 0 && best.tokens > 0);
    for (const c of report.candidates) {
      assert.deepEqual(
        Object.keys(c).filter((k) => ['id', 'kind', 'file', 'examples', 'train', 'heldout', 'delta', 'mcnemar_p', 'overfit', 'calls', 'tokens'].includes(k)),
        ['id', 'kind', 'file', 'examples', 'train', 'heldout', 'delta', 'mcnemar_p', 'overfit', 'calls', 'tokens'],
      );
    }
    // The rubric candidate is there too, and the stand-in judge does not learn from it.
    const rubric = report.candidates.find((c) => c.id === 'rubric');
    assert.equal(rubric?.delta?.accuracy, 0);

    const file = path.join(dir, 'short_answers.align', `${best.id}.judge`);
    const text = fs.readFileSync(file, 'utf8');
    const candidate = prepareJudge(text);
    assert.ok(candidate.ok, 'the candidate validates');
    assert.match(text, new RegExp(`^aligned_from: ${report.template_hash}$`, 'm'));
    assert.match(text, /^alignment:\n {2}candidate: examples4\n {2}kind: examples\n {2}seed: 1\n {2}split: \{train: 20, heldout: 20\}/m);
    assert.match(text, /heldout: \{n: 20, accuracy: 1, baseline_accuracy: [\d.]+, delta: [\d.]+, ci: \[[\d.]+, [\d.]+\], mcnemar_p: [\d.e-]+, overfit: false\}/);
    assert.equal((text.match(/^## Example \d+$/gm) ?? []).length, 4);
    assert.match(text, /\{\{!-- justification drafted by fake-judge \(no reviewer comment\); row [0-9a-f]{16} --\}\}/);
    assert.equal(fs.readFileSync(path.join(dir, 'short_answers.judge'), 'utf8'), TEMPLATE, 'the template itself is untouched');
    // Every part has its results file, and they feed calibrate and compare directly.
    const held = readJsonl(path.join(dir, 'short_answers.align', `${best.id}.heldout.results.jsonl`));
    assert.equal(held.length, 20);
    assert.ok(held.every((l) => typeof l['correct_answer/human_rating'] === 'number' && typeof l._key === 'string'));
    assert.ok(fs.existsSync(path.join(dir, 'short_answers.align', 'align-report.json')));
  });

  it('prints a table, and running again costs no calls: the cache and the kept results answer', async () => {
    const first = await align(['short_answers.judge', '--data', 'short_answers.jsonl']);
    assert.equal(first.code, EXIT_OK, first.err);
    assert.match(first.out, /^current template {6}/m);
    assert.match(first.out, /^best: examples4 → short_answers\.align\/examples4\.judge \(held-out accuracy/m);
    const before = fake.chats.length;
    const again = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json']);
    assert.equal(again.code, EXIT_OK);
    assert.equal(fake.chats.length, before, 'no request the second time');
    assert.equal(again.report?.best, 'examples4');
  });

  it('reports no best on noise (exit 1) and flags the candidates that fit train only', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      prompt: `Case ${i + 1}: does the statement about specimen ${(i * 7919) % 1000} hold for sample batch ${i % 9}?`,
      response: `For specimen ${(i * 7919) % 1000} the measured value is ${(i * 37) % 101} units, recorded on shelf ${String.fromCharCode(65 + (i % 26))}${i}.`,
      'correct_answer/human_rating': i % 2,
    }));
    writeJsonl(path.join(dir, 'noise.jsonl'), rows);
    fake.rules = [authorModel(), noisyJudge(new Map(rows.map((r) => [caseKey(r.prompt, r.response), r['correct_answer/human_rating']])))];
    const { code, report, err } = await align(['short_answers.judge', '--data', 'noise.jsonl', '--json']);
    assert.equal(code, EXIT_FINDINGS, err);
    assert.ok(report);
    assert.equal(report.best, null);
    assert.ok(report.train_disagreements > 0);
    const examples = report.candidates.filter((c) => c.kind !== 'rubric');
    assert.ok(examples.length >= 1);
    for (const c of examples) {
      assert.equal(c.overfit, true, `${c.id} fits train only (train gain ${c.train_gain}, held-out ${c.delta?.accuracy})`);
      assert.ok(c.train_gain !== null && c.train_gain > 0);
      assert.equal(c.delta?.accuracy, 0);
    }
    assert.equal(report.candidates.find((c) => c.id === 'rubric')?.overfit, false);
  });

  it('lets no held-out row reach a candidate: no held-out _key among the examples, no held-out text in any file', async () => {
    const { report } = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json', '--candidates', '5', '--max-examples', '6']);
    assert.ok(report);
    assert.equal(report.candidates.length, 5);
    const split = await heldout(path.join(dir, 'short_answers.jsonl'));
    const files = fs.readdirSync(path.join(dir, 'short_answers.align')).filter((f) => f.endsWith('.judge'));
    assert.equal(files.length, 5);
    for (const c of report.candidates) {
      assert.ok(c.examples.length > 0 || c.kind === 'rubric');
      for (const key of c.examples) assert.ok(!split.keys.has(key), `${c.id} shows held-out row ${key}`);
    }
    // Text only the held-out rows have (what a train row or the template also says is not theirs).
    const own = split.texts.filter((t) => !split.trainTexts.has(t) && !TEMPLATE.includes(t));
    assert.ok(own.length >= 30);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, 'short_answers.align', f), 'utf8');
      for (const key of split.keys) assert.ok(!text.includes(key), `${f} names held-out row ${key}`);
      for (const t of own) assert.ok(!text.includes(t), `${f} quotes held-out text "${t}"`);
    }
  });

  it('refuses a drafted clarification that quotes a held-out input, and writes no file for it', async () => {
    const split = await heldout(path.join(dir, 'short_answers.jsonl'));
    const quoted = split.texts.find((t) => t.split(' ').length >= 12)!;
    fake.rules = [authorModel(`Treat answers like "${quoted}" as correct.`), terseBiasedJudge(shortAnswersTruth())];
    const { report } = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json']);
    assert.ok(report);
    const refused = report.refused.filter((r) => r.kind !== 'examples');
    assert.deepEqual(refused.map((r) => r.id), ['rubric', 'examples4-rubric']);
    assert.match(refused[0]!.reason, /quotes the "(prompt|response)" of held-out row [0-9a-f]{16}/);
    assert.deepEqual(report.candidates.map((c) => c.id), ['examples4']);
    assert.ok(!fs.existsSync(path.join(dir, 'short_answers.align', 'rubric.judge')));
  });

  it('never sends more requests than --budget, and says what it did not judge', async () => {
    const { code, report } = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json', '--budget', '50', '--no-cache']);
    assert.equal(code, EXIT_FINDINGS);
    assert.ok(report);
    assert.ok(fake.chats.length <= 50, `${fake.chats.length} requests`);
    assert.deepEqual(report.budget, { limit: 50, used: fake.chats.length });
    assert.ok(report.not_run.length > 0);
    assert.match(report.not_run.map((n) => n.reason).join(' '), /budget/);
  });

  it('uses a reviewer comment from the labels file as the justification, without asking the author model', async () => {
    const data = readJsonl(path.join(dir, 'short_answers.jsonl'));
    const prepared = prepareJudge(TEMPLATE);
    assert.ok(prepared.ok);
    const { rowKey } = await import('../../src/core/results/keys');
    const lines = data.map((r) => ({ _key: rowKey(r, prepared.judge.keyFields), metric: 'correct_answer', label: r['correct_answer/human_rating'], annotator: 'ana', time: '2025-01-01T00:00:00Z', comment: `Reviewer: right fact for "${String(r.prompt).slice(0, 10)}".` }));
    writeJsonl(path.join(dir, 'short_answers.labels.jsonl'), lines);
    const { code, report } = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--labels', 'short_answers.labels.jsonl', '--json', '--candidates', '1']);
    assert.equal(code, EXIT_OK);
    assert.equal(report?.author.calls, 0);
    assert.deepEqual(report?.candidates[0]?.drafted_justifications, []);
    const text = fs.readFileSync(path.join(dir, 'short_answers.align', 'examples4.judge'), 'utf8');
    assert.match(text, /"justification": "Reviewer: right fact for /);
    assert.doesNotMatch(text, /drafted by/);
  });

  it('stops cleanly when cancelled, says so, and a second run finishes from where it stopped', async () => {
    const stop = new AbortController();
    const judge = terseBiasedJudge(shortAnswersTruth());
    fake.rules = [authorModel(), (r) => (fake.chats.length >= 50 ? (stop.abort(), judge(r)) : judge(r))];
    const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') }, stop.signal);
    const code = await alignCommand(['short_answers.judge', '--data', 'short_answers.jsonl', '--json', '--base-url', fake.baseURL, '--model', 'fake-judge'], io);
    assert.equal(code, EXIT_FINDINGS);
    const first = JSON.parse(io.out) as AlignReport;
    assert.equal(first.interrupted, true);
    assert.equal(first.best, null);
    assert.ok(first.not_run.length > 0);
    const sent = fake.chats.length;
    assert.ok(sent < 60, `stopped soon after the cancel (${sent} requests)`);
    fake.rules = [authorModel(), judge];
    const again = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json']);
    assert.equal(again.code, EXIT_OK);
    assert.equal(again.report?.interrupted, false);
    assert.ok(fake.chats.length - sent <= 165 - 45, `the second run asks only what the first did not finish (${fake.chats.length - sent})`);
  });

  it('exits 2 with what to label next when there are too few labelled rows or too few of a label', async () => {
    const data = readJsonl(path.join(dir, 'short_answers.jsonl'));
    writeJsonl(path.join(dir, 'few.jsonl'), data.slice(0, 12));
    const few = await align(['short_answers.judge', '--data', 'few.jsonl']);
    assert.equal(few.code, EXIT_USAGE);
    assert.match(few.err, /only 12 row\(s\) have a human label for "correct_answer"; align needs at least 20.*label 8 more/);
    const ones = data.filter((r) => r['correct_answer/human_rating'] === 1);
    const zeros = data.filter((r) => r['correct_answer/human_rating'] === 0).slice(0, 3);
    writeJsonl(path.join(dir, 'skewed.jsonl'), [...ones, ...zeros]);
    const skewed = await align(['short_answers.judge', '--data', 'skewed.jsonl']);
    assert.equal(skewed.code, EXIT_USAGE);
    assert.match(skewed.err, /humans gave 0 to 3 row\(s\); label at least 1 more row\(s\) that deserve 0/);
    assert.equal(fake.chats.length, 0, 'nothing was sent');
    const split = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--split', '1']);
    assert.equal(split.code, EXIT_USAGE);
    assert.match(split.err, /--split takes the held-out share/);
  });

  it('stops drafting after 3 unusable author replies in a row, groups the same error and lists every candidate', async () => {
    const unusable: FakeRule = (r) => ((r.body?.response_format?.json_schema as { name?: string } | undefined)?.name === 'judge_studio_align_justification' ? reply({ nothing: 'fits' }) : undefined);
    fake.rules = [unusable, authorModel(), terseBiasedJudge(shortAnswersTruth())];
    const json = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--json', '--out-dir', 'a1']);
    assert.ok(json.report);
    assert.ok(json.report.author.calls <= 2 * 3 + 2, `author calls: ${json.report.author.calls}`);
    const listed = [...json.report.candidates.map((c) => c.id), ...json.report.refused.map((x) => x.id)].sort();
    assert.deepEqual(listed, ['examples4', 'examples4-rubric', 'rubric']);
    const examples = json.report.refused.find((x) => x.id === 'examples4');
    assert.match(examples?.reason ?? '', /\(rows \d+, \d+, \d+, ×3\)/);
    assert.match(examples?.reason ?? '', /stopped after 3 unusable author replies in a row/);
    assert.ok((examples?.reason.length ?? 0) < 1500, `reason of ${examples?.reason.length} characters`);
    const text = await align(['short_answers.judge', '--data', 'short_answers.jsonl', '--out-dir', 'a1']);
    assert.ok(text.out.split('\n').every((l) => l.length < 2000), 'no line of the report runs on');
    for (const id of listed) assert.match(text.out, new RegExp(`^ *${id}[: ]`, 'm'), `${id} is listed in the text report`);
  });

  it('puts failed rows first in the text report, with their kind and what to do, when every train row failed', async () => {
    // A judge answering 3 on a [0, 1] scale: every reply is invalid, even after the repair.
    fake.rules = [authorModel(), () => reply({ justification: 'Fine.', score: 3 })];
    const { out, err } = await align(['short_answers.judge', '--data', 'short_answers.jsonl']);
    const lines = out.split('\n');
    const first = lines.findIndex((l) => l.startsWith('FAILED: the current template: all 20 train rows failed (invalid-reply ×20)'));
    assert.ok(first === 1, `the failure is the report's second line:\n${out}\n${err}`);
    assert.ok(lines.some((l) => /^  invalid-reply: .*scale/.test(l)), out);
    assert.doesNotMatch(out, /disagrees with 0 train label/);
    assert.match(out, /failed on all 20 train rows/);
  });
});

describe('judge-studio align on a pairwise template', () => {
  let fake: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    dir = tempDir();
    // The default fake judge prefers the longer response, in both orders; these humans prefer the shorter one.
    fake = await FakeOpenAI.start({ rules: [authorModel()] });
  });
  afterEach(() => fake.close());

  it('judges both orders, shows each example in both orders, and finds no best when the judge learns nothing', async () => {
    fs.writeFileSync(path.join(dir, 'pref.judge'), PAIRWISE);
    const rows = Array.from({ length: 24 }, (_, i) => {
      const short = `Reply ${i + 1}: yes, the value for crate ${i * 13} is ${i % 7}.`;
      const long = `Reply ${i + 1}: after checking every record we hold about crate ${i * 13}, including the archived ones, the value is ${i % 7}.`;
      const aShort = i % 2 === 0;
      return { prompt: `Question ${i + 1}: what is the value for crate ${i * 13}?`, response_a: aShort ? short : long, response_b: aShort ? long : short, 'pref/human_pairwise_choice': aShort ? 'A' : 'B' };
    });
    writeJsonl(path.join(dir, 'pairs.jsonl'), rows);
    const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
    const code = await alignCommand(['pref.judge', '--data', 'pairs.jsonl', '--json', '--max-examples', '2', '--candidates', '1', '--base-url', fake.baseURL, '--model', 'm'], io);
    assert.equal(code, EXIT_FINDINGS, io.err);
    const report = JSON.parse(io.out) as AlignReport;
    assert.equal(report.kind, 'pairwise');
    assert.equal(report.baseline.heldout?.accuracy, 0);
    const [c] = report.candidates;
    assert.equal(c?.id, 'examples2');
    assert.equal(c?.delta?.accuracy, 0);
    assert.equal(report.best, null);
    const text = fs.readFileSync(path.join(dir, 'pref.align', 'examples2.judge'), 'utf8');
    assert.equal((text.match(/^## Example \d+$/gm) ?? []).length, 4, 'two rows, each in both orders');
    assert.match(text, /"winner": "A", "confidence": 1\}[\s\S]*"winner": "B", "confidence": 1\}/);
    // Every held-out row was judged in both orders.
    const held = readJsonl(path.join(dir, 'pref.align', 'baseline.heldout.results.jsonl'));
    assert.ok(held.every((l) => Array.isArray(l['pref/passes']) && (l['pref/passes'] as unknown[]).length === 2));
  });
});
