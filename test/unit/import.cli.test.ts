// `judge-studio import` end to end: import FastChat judge prompts, then run one unchanged through
// `judge-studio run` against the local fake server and get the verdicts FastChat's rule reads.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { cliWorkspace } from '../support/cliWorkspace';
import { readJsonl, writeJsonl } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PROMPTS = path.join(ROOT, 'test/fixtures/import/fastchat_prompts.jsonl');

describe('judge-studio import', () => {
  const ws = cliWorkspace();

  it('writes one template per FastChat prompt, refuses to overwrite, and --force does', async () => {
    const first = await ws.cli(['import', 'fastchat', PROMPTS, '--out', 'judges']);
    assert.equal(first.code, EXIT_OK, first.io.err);
    assert.deepEqual(fs.readdirSync(path.join(ws.dir, 'judges')).sort(), ['brace-torture.judge', 'compare-two-multi-turn.judge', 'compare-two.judge', 'grade-one-ref-multi-turn.judge', 'grade-one.judge']);
    assert.match(first.io.out, /wrote judges\/grade-one\.judge \(from line 1\)/);
    const again = await ws.cli(['import', 'fastchat', PROMPTS, '--out', 'judges', '--json']);
    assert.equal(again.code, EXIT_FINDINGS);
    assert.equal((JSON.parse(again.io.out) as { templates: { skipped?: string }[] }).templates.every((t) => t.skipped), true);
    assert.equal((await ws.cli(['import', 'fastchat', PROMPTS, '--out', 'judges', '--force'])).code, EXIT_OK);
  });

  it('refuses an unknown format or a missing --out with exit 2', async () => {
    assert.equal((await ws.cli(['import', 'langsmith', PROMPTS, '--out', 'x'])).code, EXIT_USAGE);
    assert.equal((await ws.cli(['import', 'fastchat', PROMPTS])).code, EXIT_USAGE);
  });

  it('runs an imported MT-Bench-style pairwise judge unchanged, reading [[A]]/[[B]]/[[C]] as FastChat does, with the swap', async () => {
    await ws.cli(['import', 'fastchat', PROMPTS, '--out', 'judges']);
    const data = writeJsonl(path.join(ws.dir, 'pairs.jsonl'), [
      { question: 'q1', answer_a: 'strong', answer_b: 'weak' },
      { question: 'q2', answer_a: 'same', answer_b: 'same' },
    ]);
    // Prefers "strong" in whichever slot it is; equal answers tie.
    ws.fake.rules = [
      (r) => {
        const user = r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
        const a = /\[Answer of A\]\n(.*)\n/.exec(user)?.[1];
        const b = /\[Answer of B\]\n(.*)\n/.exec(user)?.[1];
        return { reply: a === b ? 'No difference. [[C]]' : a === 'strong' ? 'A is stronger. [[A]]' : 'B is stronger. [[B]]' };
      },
    ];
    const out = path.join(ws.dir, 'results.jsonl');
    const run = await ws.cli(['run', 'judges/compare-two.judge', '--data', data, '--base-url', ws.fake.baseURL, '--model', 'm', '--out', out]);
    assert.equal(run.code, EXIT_OK, run.io.err);
    assert.equal(ws.fake.requests.length, 4);
    assert.ok(ws.fake.requests.every((r) => r.body?.response_format === undefined && r.body?.temperature === 0 && r.body?.max_tokens === 2048));
    const lines = readJsonl(out).sort((x, y) => Number(x._row) - Number(y._row));
    assert.deepEqual(lines.map((l) => [l['compare_two/pairwise_choice'], l['compare_two/position_consistent']]), [['A', true], ['TIE', true]]);
  });
});
