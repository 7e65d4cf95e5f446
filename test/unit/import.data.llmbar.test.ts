// LLMBar end to end, on real LLMBar data read from ../shared/data (never copied here): import the
// set in LLMBar's own file format, judge it with LLMBar's Vanilla prompt in both orders against the
// local fake server replaying the replies GPT-4 gave LLMBar (cases.json), and calibrate. The
// accuracy is GPT-4's "right in both orders" figure from LLMBar's statistics.json.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_OK } from '../../src/cli/io';
import { formatPython, handlebarsBody, parsePythonFormat } from '../../src/core/import';
import { templateText } from '../../src/core/import/write';
import { cliWorkspace } from '../support/cliWorkspace';
import { sharedData } from '../support/sharedData';

const DATA = sharedData('llmbar') ?? '';
const available = DATA !== '';
if (!available) console.warn('import.data.llmbar: ../shared/data/llmbar is not on this machine; the LLMBar end-to-end tests are skipped');

interface Cases {
  system: string;
  user: string;
  replies: Record<string, { first: string; second: string; winner_first: string; winner_second: string }[]>;
  stats: Record<string, Record<string, { correct_both: string }>>;
}
interface Pair {
  input: string;
  output_1: string;
  output_2: string;
  label: number;
}

(available ? describe : describe.skip)('LLMBar through import-data, run with the swap, and calibrate', function () {
  this.timeout(120_000);
  const cases = available ? (JSON.parse(fs.readFileSync(path.join(DATA, 'cases.json'), 'utf8')) as Cases) : undefined;
  const all = available ? fs.readFileSync(path.join(DATA, 'llmbar.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>) : [];
  const ws = cliWorkspace();

  /** LLMBar's Vanilla prompt as a free-form template over the fields import-data writes. */
  function vanillaTemplate(): string {
    const parsed = parsePythonFormat(cases!.user);
    assert.ok(parsed.ok);
    const names: Record<string, string> = { input: 'prompt', output_1: 'response_a', output_2: 'response_b' };
    const body = handlebarsBody(parsed.pieces.map((p) => ('field' in p ? { field: names[p.field]! } : p)));
    assert.ok(body.ok);
    return templateText(
      { name: 'llmbar_vanilla', kind: 'pairwise', freeform: true, system: cases!.system, verdict: { format: 'regex', pattern: 'Output \\((?<winner>[ab])\\)', values: { a: 'A', b: 'B' } }, inputs: ['prompt', 'response_a', 'response_b'] },
      body.source,
    );
  }

  /** Replays GPT-4's recorded reply for each pair in each order, found by the exact prompt sent. */
  function replayGpt4(): void {
    const replies = new Map<string, string>();
    const parsed = parsePythonFormat(cases!.user);
    assert.ok(parsed.ok);
    all.forEach((row, i) => {
      const g = cases!.replies['GPT-4']![i]!;
      replies.set(formatPython(parsed.pieces, { input: row.input!, output_1: row.output_1!, output_2: row.output_2! }), g.first);
      replies.set(formatPython(parsed.pieces, { input: row.input!, output_1: row.output_2!, output_2: row.output_1! }), g.second);
    });
    ws.fake.rules = [
      (r) => {
        const user = r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
        const reply = replies.get(user);
        return reply !== undefined ? { reply } : { status: 400, json: { error: { message: 'no recorded reply for this prompt' } } };
      },
    ];
  }

  async function judge(file: string): Promise<{ accuracy: number; n: number }> {
    fs.writeFileSync(path.join(ws.dir, 'vanilla.judge'), vanillaTemplate());
    const imported = await ws.cli(['import-data', 'llmbar', file, '--out', 'llmbar.jsonl', '--labels', 'llmbar.labels.jsonl', '--template', 'vanilla.judge']);
    assert.equal(imported.code, EXIT_OK, imported.io.err);
    replayGpt4();
    const run = await ws.cli(['run', 'vanilla.judge', '--data', 'llmbar.jsonl', '--base-url', ws.fake.baseURL, '--model', 'gpt-4', '--out', 'results.jsonl']);
    assert.equal(run.code, EXIT_OK, run.io.err);
    const cal = await ws.cli(['calibrate', 'results.jsonl', '--metric', 'llmbar_vanilla', '--labels', 'llmbar.labels.jsonl', '--json']);
    assert.equal(cal.code, EXIT_OK, cal.io.err);
    const report = JSON.parse(cal.io.out) as { accuracy: number; n: number; human_labels: { joined: number } };
    assert.equal(report.human_labels.joined, report.n, 'every row joined its label by _key');
    return report;
  }

  it('reads llmbar_30.json (LLMBar format) and scores GPT-4 right in both orders exactly where its recorded replies are', async () => {
    const pairs = JSON.parse(fs.readFileSync(path.join(DATA, 'llmbar_30.json'), 'utf8')) as Pair[];
    const index = new Map(all.map((r, i) => [`${r.input}\u0000${r.output_1}\u0000${r.output_2}`, i]));
    const expected = pairs.filter((p) => {
      const g = cases!.replies['GPT-4']![index.get(`${p.input}\u0000${p.output_1}\u0000${p.output_2}`)!]!;
      return g.winner_first === String(p.label) && g.winner_second === String(p.label);
    }).length;
    const report = await judge(path.join(DATA, 'llmbar_30.json'));
    assert.equal(report.n, 30);
    assert.equal(report.accuracy, expected / 30);
    assert.equal(ws.fake.requests.length, 60, 'both orders of every pair');
  });

  it("matches LLMBar's published figure on Natural: GPT-4 with the Vanilla prompt right in both orders on 93 of 100 pairs", async () => {
    // The Natural pairs rewritten into LLMBar's own file format in a temporary file, as LLMBar ships them.
    const natural = all.filter((r) => r.set === 'Natural').map((r) => ({ input: r.input, output_1: r.output_1, output_2: r.output_2, label: r['llmbar/human_pairwise_choice'] === 'A' ? 1 : 2 }));
    const file = path.join(ws.dir, 'Natural.dataset.json');
    fs.writeFileSync(file, JSON.stringify(natural));
    const report = await judge(file);
    assert.equal(cases!.stats['GPT-4']!['Natural']!.correct_both.split(' = ')[0], '93 / 100');
    assert.equal(report.n, 100);
    assert.equal(report.accuracy, 0.93);
  });
});
