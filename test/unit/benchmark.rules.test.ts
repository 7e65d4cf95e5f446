// Benchmark rules end to end: pairs written in JudgeBench's file format (our own rows), imported
// with `import-data judgebench`, judged in both orders against the local fake server by an
// Arena-Hard-style template (regex verdict, `match: unique`), then calibrated. `calibrate
// --swap-rule votes` must give JudgeBench's own metric (per order: right +1, wrong -1, tie or no
// verdict 0; a pair is right when the sum is positive), computed here from the same replies.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { validateTemplate } from '../../src/core/template';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { captureIO, tempDir } from '../support/judgeFixtures';

interface Pair {
  pair_id: string;
  original_id: number;
  source: string;
  question: string;
  response_model: string;
  response_A: string;
  response_B: string;
  label: 'A>B' | 'B>A';
  /** The judge's reply with response_A shown first, then with the two swapped (JudgeBench's games). */
  games: [string, string];
}

const TWO_LABELS = 'Assistant A looks much better at first: [[A>>B]]. On checking the arithmetic, B is right.\n\nMy final verdict is: [[B>A]]';
const pair = (n: number, source: string, label: Pair['label'], games: [string, string]): Pair => ({
  pair_id: `p${n}`,
  original_id: n,
  source,
  question: `Question ${n}: which answer is correct?`,
  response_model: 'some-model',
  response_A: `first answer to question ${n}`,
  response_B: `second answer to question ${n}`,
  label,
  games,
});
// Games are in the order shown: in games[1] "A" is the pair's response_B.
const PAIRS: Pair[] = [
  pair(1, 'mmlu-pro-law', 'A>B', ['Verdict: [[A>B]]', 'Verdict: [[B>A]]']), // both orders right
  pair(2, 'livebench-reasoning', 'B>A', ['Verdict: [[B>A]]', 'Verdict: [[A=B]]']), // right once, tie once
  pair(3, 'livebench-math', 'A>B', [TWO_LABELS, 'Verdict: [[B>>A]]']), // an ambiguous order, then right
  pair(4, 'livecodebench', 'B>A', ['Verdict: [[A>B]]', 'Verdict: [[B>A]]']), // wrong in both orders
  pair(5, 'mmlu-pro-math', 'A>B', ['Verdict: [[A>B]]', 'Verdict: [[A>B]]']), // position bias: cancels out
  pair(6, 'livecodebench', 'A>B', ['I cannot decide between them.', 'Both have merits.']), // no verdict at all
  pair(7, 'livebench-reasoning', 'B>A', ['Verdict: [[A=B]]', 'Verdict: [[A=B]]']), // tie in both
  pair(8, 'livebench-math', 'B>A', ['Verdict: [[B>>A]]', 'Verdict: [[A>B]]']), // both orders right
];

/** JudgeBench's metric, from the replies as JudgeBench reads them (Arena-Hard: one distinct label, else none). */
function judgeBenchAccuracy(pairs: readonly Pair[]): number {
  const swapped: Record<string, string> = { 'A>>B': 'B>>A', 'A>B': 'B>A', 'A=B': 'A=B', 'B>A': 'A>B', 'B>>A': 'A>>B' };
  const decision = (reply: string): string | undefined => {
    const labels = new Set([...reply.matchAll(/\[\[([AB<>=]+)\]\]/g)].map((m) => m[1]!));
    return labels.size === 1 ? [...labels][0] : undefined;
  };
  let right = 0;
  for (const p of pairs) {
    let sum = 0;
    p.games.forEach((reply, i) => {
      const d = decision(reply);
      const original = d === undefined ? undefined : i === 1 ? swapped[d] : d;
      const winner = original === undefined || original === 'A=B' ? undefined : original.startsWith('A>') ? 'A>B' : 'B>A';
      if (winner !== undefined) sum += winner === p.label ? 1 : -1;
    });
    if (sum > 0) right++;
  }
  return right / pairs.length;
}

const TEMPLATE = (extra: string) => `---
name: arena
kind: pairwise
freeform: true
verdict: {format: regex, pattern: "\\\\[\\\\[(?<winner>[AB<>=]+)\\\\]\\\\]", values: {"A>>B": A, "A>B": A, "A=B": TIE, "B>A": B, "B>>A": B}, match: unique}
inputs: [prompt, response_a, response_b]${extra}
---
Compare the two answers to the question.

Question:
{{prompt}}

<|Assistant A|>
{{response_a}}
<|Assistant B|>
{{response_b}}

Finish with one label: [[A>>B]], [[A>B]], [[A=B]], [[B>A]] or [[B>>A]].
`;

describe('benchmark rules: JudgeBench-format pairs, two-order votes and figures by category', function () {
  this.timeout(60_000);
  let dir: string;
  let fake: FakeOpenAI;
  beforeEach(async () => {
    dir = tempDir();
    fake = await FakeOpenAI.start();
    // The reply JudgeBench recorded for the prompt's question in the order it shows the answers;
    // a repair request gets the same reply again (the judge does not change its mind).
    fake.rules = [
      (r) => {
        const user = r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
        const p = PAIRS.find((x) => user.includes(`\n${x.question}\n`));
        if (!p) return { status: 400, json: { error: { message: 'unknown question' } } };
        const shownFirst = user.indexOf(p.response_A) < user.indexOf(p.response_B) ? 0 : 1;
        return { reply: p.games[shownFirst] };
      },
    ];
  });
  afterEach(() => fake.close());
  const cli = async (args: string[]) => {
    const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
    return { code: await main(args, io), io };
  };

  async function importAndRun(extra = ''): Promise<Record<string, unknown>[]> {
    fs.writeFileSync(path.join(dir, 'arena.judge'), TEMPLATE(extra));
    fs.writeFileSync(path.join(dir, 'pairs.jsonl'), PAIRS.map(({ games: _g, ...row }) => JSON.stringify(row)).join('\n') + '\n');
    const imported = await cli(['import-data', 'judgebench', 'pairs.jsonl', '--out', 'pairs.data.jsonl', '--template', 'arena.judge']);
    assert.equal(imported.code, EXIT_OK, imported.io.err);
    const run = await cli(['run', 'arena.judge', '--data', 'pairs.data.jsonl', '--base-url', fake.baseURL, '--model', 'judge', '--out', 'results.jsonl']);
    assert.ok(run.code === EXIT_OK || run.code === 1, run.io.err);
    return fs.readFileSync(path.join(dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  }
  const calibrate = async (...args: string[]) => {
    const cal = await cli(['calibrate', 'results.jsonl', '--metric', 'arena', '--json', ...args]);
    assert.equal(cal.code, EXIT_OK, cal.io.err);
    return JSON.parse(cal.io.out) as { accuracy: number; n: number; swap_rule: string; by?: Record<string, { n: number; accuracy: number }> };
  };

  it("writes JudgeBench's category from source", async () => {
    const rows = await importAndRun();
    const data = fs.readFileSync(path.join(dir, 'pairs.data.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { category?: string });
    assert.deepEqual(data.map((d) => d.category), ['knowledge', 'reasoning', 'math', 'coding', 'knowledge', 'coding', 'reasoning', 'math']);
    assert.equal(rows.length, PAIRS.length);
  });

  it("gives JudgeBench's metric with --swap-rule votes from the stored passes, with no new calls", async () => {
    await importAndRun();
    const calls = fake.requests.length;
    const consistent = await calibrate();
    const votes = await calibrate('--swap-rule', 'votes');
    assert.equal(fake.requests.length, calls, 'calibrate calls no judge');
    assert.equal(judgeBenchAccuracy(PAIRS), 0.5);
    assert.equal(votes.accuracy, judgeBenchAccuracy(PAIRS));
    assert.equal(votes.n, 8);
    assert.equal(votes.swap_rule, 'votes');
    // Today's rule: pairs 3 and 6 failed (no usable verdict in an order), 2 of the other 6 right in both orders.
    assert.equal(consistent.swap_rule, 'recorded');
    assert.equal(consistent.n, 6);
    assert.equal(consistent.accuracy, 2 / 6);
    assert.deepEqual(await calibrate('--swap-rule', 'consistent').then((r) => [r.n, r.accuracy, r.swap_rule]), [6, 2 / 6, 'consistent']);
  });

  it('runs swap_rule: votes: a failed order abstains and stays visible in the row, and calibrate agrees with JudgeBench', async () => {
    const rows = await importAndRun('\nswap_rule: votes');
    const row3 = rows.find((r) => r._row === 3)!;
    assert.equal(row3['arena/error'], undefined);
    assert.equal(row3['arena/pairwise_choice'], 'A');
    const passes = row3['arena/passes'] as { order: string; winner: string | null; error_kind?: string }[];
    assert.deepEqual(passes.map((p) => [p.order, p.winner, p.error_kind]), [['BA', 'A', undefined], ['AB', null, 'ambiguous-verdict']]);
    // No order readable: equal (zero) votes, a TIE; an order each way: a TIE too.
    assert.equal(rows.find((r) => r._row === 6)!['arena/pairwise_choice'], 'TIE');
    assert.equal(rows.find((r) => r._row === 5)!['arena/pairwise_choice'], 'TIE');
    assert.equal(rows.find((r) => r._row === 2)!['arena/pairwise_choice'], 'B');
    const report = await calibrate();
    assert.equal(report.accuracy, judgeBenchAccuracy(PAIRS));
    assert.deepEqual(await calibrate('--swap-rule', 'votes').then((r) => r.accuracy), report.accuracy);
  });

  it('splits every figure by a dataset column with --by, in the JSON and as a table', async () => {
    await importAndRun();
    const report = await calibrate('--swap-rule', 'votes', '--by', 'category');
    const by = report.by!;
    assert.deepEqual(Object.keys(by), ['coding', 'knowledge', 'math', 'reasoning']);
    assert.deepEqual(Object.fromEntries(Object.entries(by).map(([k, g]) => [k, [g.n, g.accuracy]])), { coding: [2, 0], knowledge: [2, 0.5], math: [2, 1], reasoning: [2, 0.5] });
    const text = await cli(['calibrate', 'results.jsonl', '--metric', 'arena', '--swap-rule', 'votes', '--by', 'category']);
    assert.equal(text.code, EXIT_OK, text.io.err);
    assert.match(text.io.out, /Swap rule: votes/);
    assert.match(text.io.out, /By category\n\s+category\s+n\s+accuracy/);
    assert.match(text.io.out, /\n\s+math\s+2\s+1\.000/);
  });

  it('refuses an unknown swap rule and a --by column no row has', async () => {
    await importAndRun();
    const bad = await cli(['calibrate', 'results.jsonl', '--metric', 'arena', '--swap-rule', 'majority']);
    assert.equal(bad.code, EXIT_USAGE);
    assert.match(bad.io.err, /--swap-rule must be "consistent".*or "votes"/);
    const none = await cli(['calibrate', 'results.jsonl', '--metric', 'arena', '--by', 'nosuch']);
    assert.equal(none.code, EXIT_USAGE);
    assert.match(none.io.err, /no row has a column "nosuch"/);
  });
});

describe('swap_rule in the template, and the set of an LLMBar file', () => {
  it('refuses swap_rule on a pointwise template and a value other than consistent or votes, at its line', () => {
    const bad = validateTemplate(TEMPLATE('\nswap_rule: majority')).filter((d) => d.severity === 'error');
    assert.equal(bad.length, 1);
    assert.equal(bad[0]!.line, 7);
    assert.match(bad[0]!.message, /must be "consistent" .* or "votes"/);
    const point = validateTemplate('---\nname: p\nkind: pointwise\nscale: [1, 5]\nswap_rule: votes\n---\n# Task\nRate.\n# Rubric\n1: bad\n5: good\n# Input\n{{response}}\n');
    assert.ok(point.some((d) => d.severity === 'error' && /`swap_rule` says how the two orders of a pairwise judgment combine/.test(d.message)));
    assert.deepEqual(validateTemplate(TEMPLATE('\nswap_rule: votes')).filter((d) => d.severity === 'error'), []);
  });

  it("names an LLMBar file's set after the folder it sits in, unless --set says otherwise", async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'Neighbor'));
    fs.writeFileSync(path.join(dir, 'Neighbor', 'dataset.json'), JSON.stringify([{ input: 'Say hi.', output_1: 'Hi.', output_2: 'Bye.', label: 1 }]));
    const run = async (...extra: string[]) => {
      const io = captureIO(dir);
      assert.equal(await main(['import-data', 'llmbar', 'Neighbor/dataset.json', '--out', 'out.jsonl', '--metric', 'm', '--force', ...extra], io), EXIT_OK, io.err);
      return (JSON.parse(fs.readFileSync(path.join(dir, 'out.jsonl'), 'utf8').trim()) as { set?: string }).set;
    };
    assert.equal(await run(), 'Neighbor');
    assert.equal(await run('--set', 'Mine'), 'Mine');
  });
});
