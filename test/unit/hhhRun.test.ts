// The HHH example end to end: `judge-studio run examples/hhh.judge` through the real CLI entry
// point against the local fake server, then `calibrate` on the results it wrote.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { FakeOpenAI, pairSlots } from '../support/fakeOpenAI';
import type { RecordedRequest } from '../support/fakeOpenAI';
import { captureIO, hhhJudge, hhhRank, isRuleFollowUp, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import type { CapturedIO, HhhBehaviour } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DATA = readJsonl(path.join(ROOT, 'examples', 'hhh.jsonl'));
const DIMENSIONS = ['harmless', 'honest', 'helpful'];
const COLUMNS = [
  'pairwise_choice',
  'degree',
  'ranking_a',
  'ranking_b',
  'dimensions',
  'rule_violations',
  'passes',
  'position_consistent',
  'confidence',
  'justification',
  'model',
].map((c) => `hhh/${c}`);

type Line = Record<string, unknown>;
interface Pass {
  order: string;
  winner: string;
  degree: string;
  ranking: { A: number; B: number };
  dimensions: Record<string, { winner: string }>;
  before_follow_up?: { ranking: { A: number; B: number }; rule_violations: { pass: number; rule: string }[] };
}
const passesOf = (l: Line) => l['hhh/passes'] as Pass[];
const violationsOf = (l: Line) => l['hhh/rule_violations'] as { pass: number; rule: string; message: string }[];

/** The winner the fake judge must reach for a dataset row: the longer answer by its ranking. */
function expectedWinner(row: Line): string {
  const a = hhhRank(row.response_a as string);
  const b = hhhRank(row.response_b as string);
  return a > b ? 'A' : b > a ? 'B' : 'TIE';
}

describe('HHH example end to end', () => {
  let fake: FakeOpenAI;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') };
  });
  afterEach(() => fake.close());

  async function cli(args: string[]): Promise<{ code: number; io: CapturedIO }> {
    const io = captureIO(ROOT, env);
    const code = await main(args, io);
    return { code, io };
  }

  async function runHhh(behaviour: HhhBehaviour, extra: string[] = [], out = path.join(dir, 'hhh.results.jsonl')) {
    fake.rules = [hhhJudge(behaviour)];
    const result = await cli(['run', 'examples/hhh.judge', '--data', 'examples/hhh.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--out', out, ...extra]);
    return { ...result, out, lines: readJsonl(out).sort((x, y) => Number(x._row) - Number(y._row)) };
  }

  /** The dataset row a request was rendered from, and whether it showed the responses swapped. */
  function requestRow(r: RecordedRequest): { row: Line; swapped: boolean } {
    const task = r.body!.messages!.find((m) => m.role === 'user')!.content;
    const slots = pairSlots(task)!;
    const row = DATA.find((d) => d.response_a === slots.a || d.response_b === slots.a)!;
    return { row, swapped: row.response_a !== slots.a };
  }

  it('writes every HHH column once per row, with rankings and per-pass dimensions in the dataset labels', async () => {
    const { code, io, lines } = await runHhh('consistent');
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(lines.length, DATA.length);
    assert.equal(fake.chats.length, 2 * DATA.length, 'two passes per row, nothing else');
    const schema = fake.chats[0]!.body!.response_format!.json_schema!.schema as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(schema.properties), ['justification', 'dimensions', 'ranking', 'deflection', 'overall']);
    for (const line of lines) {
      const row = DATA[Number(line._row) - 1]!;
      for (const column of COLUMNS) assert.ok(column in line, `row ${row.id as string} has ${column}`);
      assert.ok(!Object.keys(line).some((k) => k.startsWith('hhh/hhh/')), 'columns are prefixed once');
      const [rankA, rankB] = [hhhRank(row.response_a as string), hhhRank(row.response_b as string)];
      assert.deepEqual([line['hhh/ranking_a'], line['hhh/ranking_b']], [rankA, rankB], `row ${row.id as string} rankings`);
      assert.equal(line['hhh/pairwise_choice'], expectedWinner(row));
      assert.deepEqual(violationsOf(line), []);
      assert.equal(line['hhh/position_consistent'], true);
      assert.equal(line['hhh/dimension_agreement'], 1, 'every dimension held across the swap');
      assert.equal(line['hhh/confidence'], null, 'the HHH reply states no confidence');
      assert.equal(line['hhh/model'], 'm');
      assert.ok('hhh/human_pairwise_choice' in line, 'the human label travels with the row');
      const passes = passesOf(line);
      assert.deepEqual(passes.map((p) => p.order), ['AB', 'BA']);
      for (const p of passes) assert.deepEqual(p.ranking, { A: rankA, B: rankB }, `${p.order} pass mapped back`);
      const dims = line['hhh/dimensions'] as Record<string, { passes: { pass: number; winner: string }[]; winner: string }>;
      assert.deepEqual(Object.keys(dims), DIMENSIONS);
      assert.deepEqual(dims.helpful!.passes.map((p) => [p.pass, p.winner]), [[1, expectedWinner(row)], [2, expectedWinner(row)]]);
    }
    const x1 = lines.find((l) => l.id === 'x1')!;
    assert.equal((x1['hhh/dimensions'] as Record<string, { winner: string }>).harmless!.winner, 'A', 'the deflecting winner also wins on harmless');
    assert.deepEqual(passesOf(x1).map((p) => p.dimensions.harmless!.winner), ['A', 'A']);
    // The judge really saw the BA order in pass 2: its slot A held response B.
    const shown = fake.chats.map(requestRow);
    assert.equal(shown.filter((s) => s.swapped).length, DATA.length);
  });

  it('reports a broken rule with its id and pass on the row and keeps the verdict', async () => {
    const { code, io, lines } = await runHhh('break-gap');
    assert.equal(code, EXIT_OK, `a rule violation is not a failed row: ${io.err}`);
    assert.match(io.err, /6 row\(s\) judged \(6 ok, 0 failed\)/);
    assert.equal(fake.chats.length, 2 * DATA.length, 'no follow-up without --reask-on-violation');
    for (const line of lines) {
      const row = DATA[Number(line._row) - 1]!;
      const violations = violationsOf(line);
      if (expectedWinner(row) === 'TIE') {
        assert.deepEqual(violations, [], 'the fake judge keeps ties consistent');
        continue;
      }
      assert.deepEqual(violations.map((v) => [v.pass, v.rule]), [[1, 'ranking-gap'], [2, 'ranking-gap']], `row ${row.id as string}`);
      const passes = passesOf(line);
      for (const v of violations) {
        // Reported in the dataset's labels, for the swapped pass too.
        const { A, B } = passes[v.pass - 1]!.ranking;
        assert.equal(v.message, `ranking gap 3 (A=${A}, B=${B}) calls for "better", but the overall degree is "slightly better"`);
      }
      assert.equal(line['hhh/pairwise_choice'], expectedWinner(row), 'the verdict stands');
      assert.equal(Math.abs((line['hhh/ranking_a'] as number) - (line['hhh/ranking_b'] as number)), 3);
    }
  });

  it('with --reask-on-violation sends one follow-up quoting the rule, keeps both replies and reports the final violations', async () => {
    const { code, io, lines } = await runHhh('fix-on-follow-up', ['--reask-on-violation']);
    assert.equal(code, EXIT_OK, io.err);
    const winners = DATA.filter((d) => expectedWinner(d) !== 'TIE');
    const followUps = fake.chats.filter(isRuleFollowUp);
    assert.equal(fake.chats.length, 2 * DATA.length + 2 * winners.length);
    assert.equal(followUps.length, 2 * winners.length, 'one follow-up per violating pass');
    for (const request of followUps) {
      const messages = request.body!.messages!;
      assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
      const text = messages[3]!.content;
      assert.match(text, /^Rule ranking-gap: the gap between the two rankings fits the overall degree/m, 'it restates the rule');
      // The quote speaks the labels the judge saw: in the swapped pass the winner sat in slot A.
      const earlier = JSON.parse(messages[2]!.content) as { ranking: { A: number; B: number } };
      assert.ok(text.includes(`- Your reply: ranking gap 3 (A=${earlier.ranking.A}, B=${earlier.ranking.B})`), text);
      const { row, swapped } = requestRow(request);
      const winnerSlot = expectedWinner(row) === 'A' ? (swapped ? 'B' : 'A') : swapped ? 'A' : 'B';
      assert.equal(earlier.ranking[winnerSlot] - earlier.ranking[winnerSlot === 'A' ? 'B' : 'A'], 3);
    }
    for (const line of lines) {
      const row = DATA[Number(line._row) - 1]!;
      assert.deepEqual(violationsOf(line), [], 'the corrected replies break no rule');
      assert.deepEqual([line['hhh/ranking_a'], line['hhh/ranking_b']], [hhhRank(row.response_a as string), hhhRank(row.response_b as string)]);
      const passes = passesOf(line);
      if (expectedWinner(row) === 'TIE') {
        assert.ok(passes.every((p) => p.before_follow_up === undefined));
        continue;
      }
      for (const [i, p] of passes.entries()) {
        const before = p.before_follow_up;
        assert.ok(before, `row ${row.id as string} keeps the replaced reply of pass ${i + 1}`);
        assert.deepEqual(before.rule_violations.map((v) => [v.pass, v.rule]), [[i + 1, 'ranking-gap']]);
        const [winner, loser] = expectedWinner(row) === 'A' ? (['A', 'B'] as const) : (['B', 'A'] as const);
        assert.equal(before.ranking[winner] - before.ranking[loser], 3, 'the replaced reply is in the dataset labels too');
      }
    }
  });

  it('answers a re-run with --reask-on-violation from the cache, follow-ups included, but not a run without it', async () => {
    const first = await runHhh('fix-on-follow-up', ['--reask-on-violation'], path.join(dir, 'a.jsonl'));
    const calls = fake.chats.length;
    const again = await runHhh('fix-on-follow-up', ['--reask-on-violation'], path.join(dir, 'b.jsonl'));
    assert.equal(fake.chats.length, calls, 'no request on the re-run');
    assert.deepEqual(again.lines, first.lines);
    const plain = await runHhh('fix-on-follow-up', [], path.join(dir, 'c.jsonl'));
    assert.equal(fake.chats.length, calls + 2 * DATA.length, 'without the flag the judge is asked afresh');
    assert.ok(plain.lines.some((l) => violationsOf(l).length > 0), 'and its first replies are reported as they are');
  });

  it('maps a position-biased pass 2 back and averages the rankings of both passes', async () => {
    const data = writeJsonl(path.join(dir, 'bias.jsonl'), [
      // Ranks 5 and 3: the bias only changes the gap, so the winner holds.
      { prompt: 'q', response_a: 'a'.repeat(120), response_b: 'b'.repeat(40) },
      // Ranks 4 and 4: whoever sits in slot A wins, so the passes disagree.
      { prompt: 'q', response_a: 'a'.repeat(80), response_b: 'b'.repeat(81) },
    ]);
    fake.rules = [hhhJudge('slot-a-bias')];
    const out = path.join(dir, 'bias.results.jsonl');
    const { code, io } = await cli(['run', 'examples/hhh.judge', '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out]);
    assert.equal(code, EXIT_OK, io.err);
    const [held, flipped] = readJsonl(out).sort((x, y) => Number(x._row) - Number(y._row));
    assert.deepEqual(passesOf(held!).map((p) => [p.order, p.ranking]), [['AB', { A: 6, B: 3 }], ['BA', { A: 5, B: 4 }]]);
    assert.deepEqual([held!['hhh/ranking_a'], held!['hhh/ranking_b']], [5.5, 3.5]);
    assert.deepEqual(passesOf(held!).map((p) => [p.winner, p.degree]), [['A', 'better'], ['A', 'slightly better']]);
    assert.deepEqual([held!['hhh/pairwise_choice'], held!['hhh/degree'], held!['hhh/position_consistent']], ['A', 'slightly better', true]);
    assert.deepEqual(passesOf(held!).map((p) => p.dimensions.helpful!.winner), ['A', 'A'], 'pass 2 dimensions mapped back');

    assert.deepEqual(passesOf(flipped!).map((p) => p.winner), ['A', 'B']);
    assert.deepEqual([flipped!['hhh/ranking_a'], flipped!['hhh/ranking_b']], [4.5, 4.5]);
    assert.deepEqual(
      [flipped!['hhh/pairwise_choice'], flipped!['hhh/degree'], flipped!['hhh/position_consistent'], flipped!['hhh/confidence']],
      ['TIE', 'about the same', false, 0.5],
    );
    assert.match(flipped!['hhh/justification'] as string, /^The two orders disagreed \(AB: A, BA: B after mapping back\)/);
  });

  it('calibrates the results file and reports the violation rate per rule', async () => {
    const { out, lines } = await runHhh('break-gap');
    const { code, io } = await cli(['calibrate', out, '--metric', 'hhh', '--json']);
    assert.equal(code, EXIT_OK, io.err);
    const report = JSON.parse(io.out) as {
      kind: string;
      n: number;
      accuracy: number;
      rule_violations: { n: number; rows_with_violations: number; rate: number; by_rule: Record<string, { rows: number; rate: number }> };
    };
    const broken = lines.filter((l) => violationsOf(l).length > 0).length;
    assert.ok(broken > 0 && broken < lines.length);
    assert.equal(report.kind, 'pairwise');
    assert.equal(report.n, DATA.length, 'every row has a human and a judge choice');
    const agree = lines.filter((l) => l['hhh/pairwise_choice'] === l['hhh/human_pairwise_choice']).length;
    assert.equal(report.accuracy, agree / lines.length);
    assert.deepEqual(report.rule_violations, {
      n: DATA.length,
      rows_with_violations: broken,
      rate: broken / DATA.length,
      by_rule: { 'ranking-gap': { rows: broken, rate: broken / DATA.length } },
    });
    const text = await cli(['calibrate', out, '--metric', 'hhh']);
    assert.match(text.io.out, /ranking-gap/);
  });

  it('refuses --reask-on-violation for a template without dimensions and documents it in --help', async () => {
    const { code, io } = await cli(['run', 'examples/fluency_pairwise.judge', '--data', 'examples/fluency_pairwise.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--reask-on-violation']);
    assert.equal(code, EXIT_USAGE);
    assert.match(io.err, /--reask-on-violation applies to templates that declare dimensions/);
    assert.equal(fake.requests.length, 0);
    const help = captureIO(ROOT, env);
    assert.equal(await main(['run', '--help'], help), EXIT_OK);
    assert.match(help.out, /--reask-on-violation {5}templates with dimensions/);
    assert.match(help.out, /a reply that breaks a\nconsistency rule is not a parse failure, so its verdict stands/);
  });
});
