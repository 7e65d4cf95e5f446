// JudgeBench end to end on its real data, read from ../shared/data (never copied here): its pairs
// through `import-data judgebench`, judged in both orders against the local fake server replaying
// the replies o1-mini and Claude-3-Haiku gave JudgeBench's Arena-Hard prompt, then calibrated with
// JudgeBench's rule (`--swap-rule votes`). The figures are JudgeBench's published ones.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_OK } from '../../src/cli/io';
import { cliWorkspace } from '../support/cliWorkspace';
import { sharedData } from '../support/sharedData';

const DATA = sharedData('judgebench') ?? '';
const available = DATA !== '';
if (!available) console.warn('import.data.judgebench: ../shared/data/judgebench is not on this machine; the JudgeBench end-to-end tests are skipped');

interface Games {
  pairs: string;
  games: Record<string, { response: string; decision: string | null }[]>;
}
interface Pair {
  pair_id: string;
  question: string;
  response_A: string;
  response_B: string;
}

// Arena-Hard's verdict labels read as JudgeBench reads them; the prompt is ours (replies are found by pair and order).
const TEMPLATE = `---
name: arena_hard
kind: pairwise
freeform: true
verdict: {format: regex, pattern: "\\\\[\\\\[(?<winner>[AB<>=]+)\\\\]\\\\]", values: {"A>>B": A, "A>B": A, "A=B": TIE, "B>A": B, "B>>A": B}, match: unique}
swap_rule: votes
inputs: [prompt, response_a, response_b]
---
<|User Prompt|>
{{prompt}}

<|The Start of Assistant A's Answer|>
{{response_a}}
<|The End of Assistant A's Answer|>

<|The Start of Assistant B's Answer|>
{{response_b}}
<|The End of Assistant B's Answer|>

End with your final verdict as one label: [[A>>B]], [[A>B]], [[A=B]], [[B>A]] or [[B>>A]].
`;

(available ? describe : describe.skip)("JudgeBench through import-data, run in both orders, and calibrate with JudgeBench's rule", function () {
  this.timeout(180_000);
  const judgments = available ? (JSON.parse(fs.readFileSync(path.join(DATA, 'arena_hard_judgments.json'), 'utf8')) as Record<string, Games>) : {};
  const ws = cliWorkspace();

  async function judge(judgeModel: string): Promise<{ report: { accuracy: number; n: number; by: Record<string, { n: number }> }; ambiguous: number }> {
    const { pairs: responseModel, games } = judgments[judgeModel]!;
    const file = path.join(DATA, `pairs.${responseModel}.jsonl`);
    const pairs = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Pair);
    const byPrompt = new Map<string, Pair>();
    for (const p of pairs) byPrompt.set(`${p.question}\u0000${p.response_A}`, p).set(`${p.question}\u0000${p.response_B}`, p);
    ws.fake.rules = [
      (r) => {
        const user = r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
        const question = /<\|User Prompt\|>\n([\s\S]*?)\n\n<\|The Start of Assistant A's Answer\|>\n/.exec(user)?.[1];
        const first = /<\|The Start of Assistant A's Answer\|>\n([\s\S]*?)\n<\|The End of Assistant A's Answer\|>/.exec(user)?.[1];
        const p = question !== undefined && first !== undefined ? byPrompt.get(`${question}\u0000${first}`) : undefined;
        const game = p ? games[p.pair_id]?.[first === p.response_A ? 0 : 1] : undefined;
        return game ? { reply: game.response } : { status: 400, json: { error: { message: 'no recorded reply for this prompt' } } };
      },
    ];
    fs.writeFileSync(path.join(ws.dir, 'arena_hard.judge'), TEMPLATE);
    const imported = await ws.cli(['import-data', 'judgebench', file, '--out', 'pairs.jsonl', '--template', 'arena_hard.judge']);
    assert.equal(imported.code, EXIT_OK, imported.io.err);
    const run = await ws.cli(['run', 'arena_hard.judge', '--data', 'pairs.jsonl', '--base-url', ws.fake.baseURL, '--model', judgeModel, '--out', 'results.jsonl']);
    assert.equal(run.code, EXIT_OK, run.io.err);
    const rows = fs.readFileSync(path.join(ws.dir, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const ambiguous = rows.flatMap((r) => (r['arena_hard/passes'] as { error_kind?: string }[]).filter((p) => p.error_kind === 'ambiguous-verdict')).length;
    const cal = await ws.cli(['calibrate', 'results.jsonl', '--metric', 'arena_hard', '--json', '--by', 'category']);
    assert.equal(cal.code, EXIT_OK, cal.io.err);
    return { report: JSON.parse(cal.io.out) as never, ambiguous };
  }

  it("gives o1-mini's published 65.71 % on the GPT-4o pairs", async () => {
    const { report } = await judge('o1-mini-2024-09-12');
    assert.equal(report.n, 350);
    assert.equal(Math.round(report.accuracy * 350), 230);
    assert.equal((report.accuracy * 100).toFixed(2), '65.71');
    assert.equal(Object.values(report.by).reduce((a, g) => a + g.n, 0), 350);
  });

  it("refuses Claude-3-Haiku's 13 replies with two different labels, and gives JudgeBench's figure on the Claude pairs", async () => {
    const { report, ambiguous } = await judge('claude-3-haiku-20240307');
    assert.equal(ambiguous, 13);
    assert.equal(report.n, 270);
    // JudgeBench's own reading of the same replies: 87 of 270 pairs right.
    assert.equal(Math.round(report.accuracy * 270), 87);
  });
});
