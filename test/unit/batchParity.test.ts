// Batch parity: every example template and every verdict format judged by `run` and by
// `batch submit` → `batch collect` against the same rules gives the same results lines, byte for
// byte but the batch id. One engine judges both: the batch is only another transport.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { batchCommand } from '../../src/cli/commands/batch';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK } from '../../src/cli/io';
import { parseTemplate } from '../../src/core/template';
import { VERDICT_FORMAT_NAMES } from '../../src/core/verdict';
import { FakeBatchServer } from '../support/fakeBatchServer';
import { FakeOpenAI, reply, type FakeRule } from '../support/fakeOpenAI';
import { captureIO, hhhJudge, panelTemplate, PAIRWISE, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import { prometheusRelative } from '../support/prometheusFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
const isRepair = (prompt: string) => /could not be used/.test(prompt);

/** Text replies for the text verdict formats, derived from the prompt like autoReply's JSON. */
const tagged: FakeRule = (r) => {
  if (r.body?.response_format) return undefined;
  const pair = /\[\[A\]\]/.test(r.prompt);
  if (pair) return reply(`Comparing both. ${['[[A]]', '[[B]]', '[[C]]'][hash(r.prompt) % 3]}`);
  return reply(`The answer is fine. Rating: [[${1 + (hash(r.prompt) % 10)}]]`);
};
const patterned: FakeRule = (r) => reply(`Reasoning first.\nScore: ${1 + (hash(r.prompt) % 5)}\n`);
const renamed: FakeRule = (r) => reply(JSON.stringify({ reason: 'Checked the steps.', pass: hash(r.prompt) % 2 === 0 ? 'yes' : 'no' }));
/** Every third row's first reply is unusable; the repair request gets a valid one. */
const needsRepair: FakeRule = (r) => {
  if (isRepair(r.prompt)) return reply(JSON.stringify({ justification: 'Repaired.', score: 2 }));
  if ((/Response: (.*)/.exec(r.prompt)?.[1]?.length ?? 0) % 3 === 0) return reply('I would rate this highly, but I forgot the JSON.');
  return undefined;
};
/** Prometheus 2's "Feedback: … [RESULT] N" (or A/B); rows 0 and 3 first reply with no verdict and get the repair. */
const prometheus: FakeRule = (r) => {
  if (r.body?.response_format) return undefined;
  const pair = /###Response B:/.test(r.prompt);
  if (isRepair(r.prompt)) return reply(`Feedback: Repaired. [RESULT] ${pair ? 'B' : 2}`);
  if (/\bq(?:uestion )?[03]\b/.test(r.prompt)) return reply('Feedback: I forgot to give the result.');
  return reply(`Feedback: Read it closely. [RESULT] ${pair ? 'AB'[hash(r.prompt) % 2] : 1 + (hash(r.prompt) % 5)}`);
};
const expected: FakeRule = () => ({ ...reply(JSON.stringify({ justification: 'ok', score: 3 })), logprobs: { score: { '3': 0.5, '4': 0.3, '2': 0.2 } } });

const RENAMED = `---
name: passes
kind: pointwise
scale: [0, 1]
inputs: [prompt, response]
verdict:
  format: json
  fields: {score: pass, justification: reason}
  values: {"yes": 1, "no": 0}
---
# Criteria
The response follows the instruction in the prompt.

# Rubric
- 0: It does not follow the instruction.
- 1: It follows the instruction.

# Evaluation steps
1. Read the instruction. 2. Check the response against it.

# Task
Prompt: {{prompt}}
Response: {{response}}

Reply with JSON: {"reason": "...", "pass": "yes" or "no"}.
`;
const REGEX = POINTWISE.replace('inputs: [prompt, response]', 'inputs: [prompt, response]\nverdict:\n  format: regex\n  pattern: "Score: (?<score>\\\\d)"');
const EXPECTED = POINTWISE.replace('inputs: [prompt, response]', 'inputs: [prompt, response]\nmodel:\n  scoring: expected');
const FREE_PAIR = `---
name: free_pair
kind: pairwise
freeform: true
verdict: tagged
inputs: [question, answer_a, answer_b]
pair: {a: [answer_a], b: [answer_b]}
---
Q: {{question}}
A: {{answer_a}}
B: {{answer_b}}
Reply [[A]], [[B]] or [[C]] for a tie.
`;

/** Structured: the engine appends Prometheus's output instruction (no Output format section). */
const PROMETHEUS_ABS = POINTWISE.replace('name: quality', 'name: prom_abs').replace('inputs: [prompt, response]', 'inputs: [prompt, response]\nverdict: prometheus');
const PROMETHEUS_REL = prometheusRelative('prom_rel');

const pointRows = (n: number) => Array.from({ length: n }, (_, i) => ({ prompt: `question ${i}`, response: `answer ${'x'.repeat(i)}` }));
const pairRows = (n: number) => Array.from({ length: n }, (_, i) => ({ prompt: `q${i}`, response_a: 'a'.repeat(i + 1), response_b: 'b'.repeat(n - i) }));

interface Case {
  name: string;
  template: string;
  data: string | Record<string, unknown>[];
  rules?: FakeRule[];
  args?: string[];
  /** What the case must show in the batch's lines, so parity is never parity of two empty runs. */
  shows?: (lines: Record<string, unknown>[]) => void;
}

const example = (name: string, data: string, rules?: FakeRule[]): Case => ({
  name: `examples/${name}`,
  template: fs.readFileSync(path.join(EXAMPLES, name), 'utf8'),
  data: path.join(EXAMPLES, data),
  ...(rules ? { rules } : {}),
});

/** Some rows were repaired and some were not (so both paths are compared). */
const shownRepairs = (metric: string) => (lines: Record<string, unknown>[]) =>
  assert.ok(lines.some((l) => l[`${metric}/repaired`] === true) && lines.some((l) => l[`${metric}/repaired`] === undefined), JSON.stringify(lines.map((l) => l[`${metric}/repaired`])));

const CASES: Case[] = [
  example('helpfulness.judge', 'helpfulness.jsonl'),
  example('pass_fail.judge', 'pass_fail.csv'),
  example('fluency_pairwise.judge', 'fluency_pairwise.jsonl'),
  example('factual_accuracy.judge', 'factual_accuracy.jsonl'),
  example('hhh.judge', 'hhh.jsonl', [hhhJudge('consistent')]),
  example('mt_single.judge', 'mt_single.jsonl', [tagged]),
  example('mt_pair.judge', 'mt_pair.jsonl', [tagged]),
  { name: 'renamed JSON fields with values', template: RENAMED, data: pointRows(6), rules: [renamed] },
  { name: 'regex verdict', template: REGEX, data: pointRows(6), rules: [patterned] },
  { name: 'prometheus absolute grading (with repairs)', template: PROMETHEUS_ABS, data: pointRows(8), rules: [prometheus], shows: shownRepairs('prom_abs') },
  { name: 'prometheus relative grading, free-form (with repairs)', template: PROMETHEUS_REL, data: pairRows(6), rules: [prometheus], shows: shownRepairs('prom_rel') },
  { name: 'free-form tagged pairwise', template: FREE_PAIR, data: Array.from({ length: 5 }, (_, i) => ({ question: `q${i}`, answer_a: `a${i}`, answer_b: `b${'b'.repeat(i)}` })), rules: [tagged] },
  { name: 'JSON pairwise with 2 samples', template: PAIRWISE, data: pairRows(5), args: ['--samples', '2'] },
  {
    name: 'a panel of three judges',
    template: panelTemplate(['m1', 'm2', 'm3']),
    data: pairRows(5),
    shows: (lines) => lines.forEach((l) => assert.equal((l['panel_pref/judges'] as unknown[]).length, 3)),
  },
  {
    name: 'scoring: expected (logprobs)',
    template: EXPECTED,
    data: pointRows(4),
    rules: [expected],
    shows: (lines) => lines.forEach((l) => assert.ok(Math.abs((l['quality/score_expected'] as number) - 3.1) < 1e-9)),
  },
  {
    name: 'replies needing the one repair',
    template: POINTWISE,
    data: pointRows(9),
    rules: [needsRepair],
    shows: (lines) => assert.ok(lines.some((l) => l['quality/repaired'] === true) && lines.some((l) => l['quality/repaired'] === undefined), JSON.stringify(lines.map((l) => [l['quality/score'], l['quality/repaired'], l['quality/error']]))),
  },
];

describe('batch parity: run and batch submit/collect write the same lines', function () {
  this.timeout(60_000);
  let chat: FakeOpenAI;
  let provider: FakeBatchServer;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    chat = await FakeOpenAI.start();
    provider = await FakeBatchServer.start();
    dir = tempDir();
    // status and collect name the endpoint the state was submitted to: a state never chooses it.
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_BASE_URL: provider.baseURL };
  });
  afterEach(async () => {
    await chat.close();
    await provider.close();
  });

  async function cli(command: typeof runCommand, args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIO(dir, env);
    const code = await command(args, io);
    return { code, out: io.out, err: io.err };
  }

  /** Retrieves until every batch is finished (each retrieve moves the fake one step). */
  async function untilDone(state: string): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const s = JSON.parse((await cli(batchCommand, ['status', '--state', state, '--json'])).out) as { done: boolean };
      if (s.done) return;
    }
    assert.fail('batches never finished');
  }

  for (const c of CASES) {
    it(`${c.name}: identical results lines, only m/batch_id added`, async () => {
      chat.rules = c.rules ?? [];
      provider.rules = c.rules ?? [];
      const tpl = path.join(dir, 't.judge');
      fs.writeFileSync(tpl, c.template);
      const data = typeof c.data === 'string' ? c.data : writeJsonl(path.join(dir, 'd.jsonl'), c.data);
      const model = /judges:/.test(c.template) ? [] : ['--model', 'm'];
      const runOut = path.join(dir, 'run.jsonl');
      const ran = await cli(runCommand, [tpl, '--data', data, '--base-url', chat.baseURL, ...model, '--no-cache', '--out', runOut, ...(c.args ?? [])]);
      assert.equal(ran.code === EXIT_OK || ran.code === 1, true, ran.err);

      const state = path.join(dir, 'job.state.json');
      const submitted = await cli(batchCommand, ['submit', tpl, '--data', data, '--state', state, '--base-url', provider.baseURL, ...model, ...(c.args ?? [])]);
      assert.equal(submitted.code, EXIT_OK, submitted.err);
      const batchOut = path.join(dir, 'batch.jsonl');
      await untilDone(state);
      let collected = await cli(batchCommand, ['collect', '--state', state, '--out', batchOut]);
      for (let round = 0; /repair/.test(collected.err) && /still pending/.test(collected.err) && round < 3; round++) {
        assert.equal((await cli(batchCommand, ['submit', '--repairs', '--state', state, '--base-url', provider.baseURL])).code, EXIT_OK);
        await untilDone(state);
        collected = await cli(batchCommand, ['collect', '--state', state, '--out', batchOut]);
      }
      assert.equal(collected.code, ran.code, collected.err);
      assert.doesNotMatch(collected.err, /still pending/);

      const metric = /^name: (\S+)$/m.exec(c.template)![1]!;
      const strip = (l: Record<string, unknown>) => Object.fromEntries(Object.entries(l).filter(([k]) => k !== `${metric}/batch_id`));
      const sorted = (f: string) => readJsonl(f).sort((a, b) => Number(a._row) - Number(b._row));
      const runLines = sorted(runOut);
      const batchLines = sorted(batchOut);
      assert.ok(runLines.length > 0);
      batchLines.forEach((l) => assert.ok(l[`${metric}/batch_id`] !== undefined, 'every batch line names its batch'));
      assert.deepEqual(batchLines.map(strip), runLines);
      assert.ok(runLines.some((l) => l[`${metric}/error`] === undefined), 'some rows got a verdict');
      c.shows?.(batchLines);
      // The very request bodies run sent (repairs included), as a multiset.
      const bodies = (xs: { body: unknown }[]) => xs.map((b) => JSON.stringify(b.body)).sort();
      assert.deepEqual(bodies(provider.ran), bodies(chat.chats));
    });
  }

  it('has a case for every verdict format, pointwise and pairwise where the format reads both', () => {
    const covered = new Set(CASES.map((c) => {
      const config = parseTemplate(c.template).config;
      return `${config?.verdict?.format ?? 'json'} ${config?.kind}`;
    }));
    const missing = VERDICT_FORMAT_NAMES.filter((f) => !covered.has(`${f} pointwise`) && !covered.has(`${f} pairwise`));
    assert.deepEqual(missing, [], 'a new verdict format needs a parity case here');
    for (const f of ['json', 'tagged', 'prometheus'] as const) assert.ok(covered.has(`${f} pointwise`) && covered.has(`${f} pairwise`), f);
  });

  it('the tagged verdict template scores in batch as in run (it sends no response_format)', async () => {
    chat.rules = [tagged];
    provider.rules = [tagged];
    const state = path.join(dir, 's.json');
    const data = path.join(EXAMPLES, 'mt_single.jsonl');
    assert.equal((await cli(batchCommand, ['submit', path.join(EXAMPLES, 'mt_single.judge'), '--data', data, '--state', state, '--base-url', provider.baseURL, '--model', 'm'])).code, EXIT_OK);
    await untilDone(state);
    const out = path.join(dir, 'b.jsonl');
    assert.equal((await cli(batchCommand, ['collect', '--state', state, '--out', out])).code, EXIT_OK);
    readJsonl(out).forEach((l) => assert.ok(Number.isInteger(l['mt_single/score']), JSON.stringify(l)));
    provider.ran.forEach((r) => assert.equal(r.body.response_format, undefined));
  });
});
