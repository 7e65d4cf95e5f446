// `run --shard K/N` splits a run over machines and `merge` joins the shards: the merged file is the
// unsharded run's file, ordered by `_row`; mixed judges and existing outputs are refused.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeCommand } from '../../src/cli/commands/merge';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { captureIO, PAIRWISE, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const byRow = (lines: Record<string, unknown>[]) => [...lines].sort((a, b) => Number(a._row) - Number(b._row));

describe('run --shard and merge', () => {
  let fake: FakeOpenAI;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') };
  });
  afterEach(() => fake.close());

  async function run(args: string[]): Promise<number> {
    const io = captureIO(dir, env);
    const code = await runCommand([...args, '--base-url', fake.baseURL, '--model', 'm', '--no-cache'], io);
    if (code !== EXIT_OK) assert.fail(io.err);
    return code;
  }

  async function merge(args: string[]): Promise<{ code: number; err: string; out: string }> {
    const io = captureIO(dir, env);
    const code = await mergeCommand(args, io);
    return { code, err: io.err, out: io.out };
  }

  for (const [kind, template, records] of [
    ['pointwise', POINTWISE, Array.from({ length: 11 }, (_, i) => ({ prompt: `q${i}`, response: `answer ${'x'.repeat(i)}` }))],
    ['pairwise', PAIRWISE, Array.from({ length: 7 }, (_, i) => ({ prompt: `q${i}`, response_a: 'a'.repeat(i), response_b: 'b'.repeat(7 - i) }))],
  ] as const) {
    it(`merges three ${kind} shards into exactly the unsharded run's lines, ordered by _row`, async () => {
      const tpl = path.join(dir, 't.judge');
      fs.writeFileSync(tpl, template);
      const data = writeJsonl(path.join(dir, 'd.jsonl'), [...records]);
      await run([tpl, '--data', data, '--out', path.join(dir, 'all.jsonl')]);
      const shards = [1, 2, 3].map((k) => path.join(dir, `shard${k}.jsonl`));
      for (const [i, file] of shards.entries()) await run([tpl, '--data', data, '--shard', `${i + 1}/3`, '--out', file]);
      readJsonl(shards[1]!).forEach((l) => assert.equal((Number(l._row) - 1) % 3, 1, `shard 2/3 judged row ${String(l._row)}`));

      const merged = path.join(dir, 'merged.jsonl');
      const result = await merge([...shards, '--out', merged]);
      assert.equal(result.code, EXIT_OK, result.err);
      const lines = readJsonl(merged);
      assert.deepEqual(lines.map((l) => l._row), records.map((_, i) => i + 1));
      assert.deepEqual(lines, byRow(readJsonl(path.join(dir, 'all.jsonl'))));
    });
  }

  it('combines --shard with --rows: only rows in both', async () => {
    const tpl = path.join(dir, 't.judge');
    fs.writeFileSync(tpl, POINTWISE);
    const data = writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: 10 }, (_, i) => ({ prompt: `q${i}`, response: `r${i}` })));
    await run([tpl, '--data', data, '--rows', '3-9', '--shard', '2/2', '--out', path.join(dir, 's.jsonl')]);
    assert.deepEqual(readJsonl(path.join(dir, 's.jsonl')).map((l) => l._row).sort(), [4, 6, 8]);
  });

  it('rejects a shard that is not K/N with 1 ≤ K ≤ N', async () => {
    for (const bad of ['0/2', '3/2', '2', 'a/b']) {
      const io = captureIO(dir, env);
      const code = await runCommand([path.join(dir, 'x.judge'), '--data', 'd.jsonl', '--shard', bad], io).catch((e: Error) => e);
      assert.ok(code instanceof Error && /--shard takes K\/N/.test(code.message), `--shard ${bad}: ${String(code)}`);
    }
  });

  it('keeps the last line per _row, later files winning', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [
      { _row: 2, 'm/score': 1, 'm/template_hash': 'h1' },
      { _row: 1, 'm/score': 1, 'm/template_hash': 'h1' },
    ]);
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [
      { _row: 2, 'm/score': 5, 'm/template_hash': 'h1' },
      { _row: 3, 'm/score': 3, 'm/template_hash': 'h1' },
      { _row: 3, 'm/score': 4, 'm/template_hash': 'h1' },
    ]);
    const out = path.join(dir, 'm.jsonl');
    const result = await merge([a, b, '--out', out, '--json']);
    assert.equal(result.code, EXIT_OK, result.err);
    assert.deepEqual(readJsonl(out).map((l) => [l._row, l['m/score']]), [[1, 1], [2, 5], [3, 4]]);
    assert.deepEqual(JSON.parse(result.out).templates, { m: 'h1' });
    assert.equal(JSON.parse(result.out).replaced, 2);
  });

  it('refuses files of different template versions or metrics, and writes nothing', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [{ _row: 1, 'm/score': 1, 'm/template_hash': 'h1' }]);
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [{ _row: 2, 'm/score': 5, 'm/template_hash': 'h2' }]);
    const c = writeJsonl(path.join(dir, 'c.jsonl'), [{ _row: 3, 'n/score': 5, 'n/template_hash': 'h1' }]);
    const out = path.join(dir, 'm.jsonl');
    const mixedTemplates = await merge([a, b, '--out', out]);
    assert.equal(mixedTemplates.code, EXIT_USAGE);
    assert.match(mixedTemplates.err, /template version "m" h1 but b\.jsonl:1 by "m" h2/);
    const mixedMetrics = await merge([a, c, '--out', out]);
    assert.equal(mixedMetrics.code, EXIT_USAGE);
    assert.match(mixedMetrics.err, /merge only the shards of one run/);
    assert.equal(fs.existsSync(out), false);
  });

  it('accepts an older version that a later line of the same row replaces', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [{ _row: 1, 'm/score': 1, 'm/template_hash': 'old' }]);
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [{ _row: 1, 'm/score': 2, 'm/template_hash': 'new' }]);
    const result = await merge([a, b, '--out', path.join(dir, 'm.jsonl')]);
    assert.equal(result.code, EXIT_OK, result.err);
  });

  it('never replaces an existing --out without --overwrite', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [{ _row: 1, 'm/score': 1, 'm/template_hash': 'h1' }]);
    const out = path.join(dir, 'm.jsonl');
    fs.writeFileSync(out, 'precious\n');
    const refused = await merge([a, '--out', out]);
    assert.equal(refused.code, EXIT_USAGE);
    assert.match(refused.err, /already exists; pass --overwrite/);
    assert.equal(fs.readFileSync(out, 'utf8'), 'precious\n');
    assert.equal((await merge([a, '--out', out, '--overwrite'])).code, EXIT_OK);
    assert.deepEqual(readJsonl(out), [{ _row: 1, 'm/score': 1, 'm/template_hash': 'h1' }]);
  });

  it('reports a torn last line and a line without _row', async () => {
    const a = path.join(dir, 'a.jsonl');
    fs.writeFileSync(a, `${JSON.stringify({ _row: 1, 'm/template_hash': 'h' })}\n{"_row": 2, "m/sco`);
    const result = await merge([a, '--out', path.join(dir, 'm.jsonl')]);
    assert.equal(result.code, EXIT_FINDINGS);
    assert.match(result.err, /a\.jsonl:2: a torn last line/);
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [{ prompt: 'not a result' }]);
    const notResults = await merge([b, '--out', path.join(dir, 'n.jsonl')]);
    assert.equal(notResults.code, EXIT_USAGE);
    assert.match(notResults.err, /has no "_row"/);
  });

  describe('shard identity', () => {
    /** Dataset A of 20 rows, and B: one new row, then A's. */
    const datasets = () => {
      const tpl = path.join(dir, 't.judge');
      fs.writeFileSync(tpl, POINTWISE);
      const a = Array.from({ length: 20 }, (_, i) => ({ prompt: `q${i + 1}`, response: `r${i + 1}` }));
      return { tpl, a: writeJsonl(path.join(dir, 'a.jsonl'), a), b: writeJsonl(path.join(dir, 'b.jsonl'), [{ prompt: 'new', response: 'row' }, ...a]) };
    };

    it('refuses shard 1/2 of one dataset and shard 2/2 of another, naming both, and writes nothing', async () => {
      const { tpl, a, b } = datasets();
      await run([tpl, '--data', a, '--shard', '1/2', '--out', path.join(dir, 's1.jsonl')]);
      await run([tpl, '--data', b, '--shard', '2/2', '--out', path.join(dir, 's2.jsonl')]);
      const out = path.join(dir, 'm.jsonl');
      const r = await merge([path.join(dir, 's1.jsonl'), path.join(dir, 's2.jsonl'), '--out', out]);
      assert.equal(r.code, EXIT_USAGE, r.err);
      assert.match(r.err, /s1\.jsonl is shard 1\/2 of a dataset of 20 row\(s\) \(fingerprint [0-9a-f]{16}\), but s2\.jsonl is shard 2\/2 of a dataset of 21 row\(s\)/);
      assert.equal(fs.existsSync(out), false);
    });

    it('refuses a set of shards missing one, naming it', async () => {
      const { tpl, a } = datasets();
      for (const k of [1, 3]) await run([tpl, '--data', a, '--shard', `${k}/3`, '--out', path.join(dir, `s${k}.jsonl`)]);
      const r = await merge([path.join(dir, 's1.jsonl'), path.join(dir, 's3.jsonl'), '--out', path.join(dir, 'm.jsonl')]);
      assert.equal(r.code, EXIT_USAGE, r.err);
      assert.match(r.err, /shard 2\/3 is missing \(given: 1\/3 in s1\.jsonl, 3\/3 in s3\.jsonl\)/);
    });

    it('refuses a shard mixed with a file that records no shard (its manifest is gone)', async () => {
      const { tpl, a } = datasets();
      for (const k of [1, 2]) await run([tpl, '--data', a, '--shard', `${k}/2`, '--out', path.join(dir, `s${k}.jsonl`)]);
      fs.rmSync(path.join(dir, 's2.jsonl.run.json'));
      const r = await merge([path.join(dir, 's1.jsonl'), path.join(dir, 's2.jsonl'), '--out', path.join(dir, 'm.jsonl')]);
      assert.equal(r.code, EXIT_USAGE, r.err);
      assert.match(r.err, /s2\.jsonl records no shard \(its run manifest s2\.jsonl\.run\.json is missing/);
    });

    it('records the dataset fingerprint and K/N in the shard\'s manifest, the same for every shard of one dataset', async () => {
      const { tpl, a } = datasets();
      for (const k of [1, 2]) await run([tpl, '--data', a, '--shard', `${k}/2`, '--out', path.join(dir, `s${k}.jsonl`)]);
      const shard = (k: number) => (JSON.parse(fs.readFileSync(path.join(dir, `s${k}.jsonl.run.json`), 'utf8')) as { shard: { index: number; count: number; dataset: unknown } }).shard;
      assert.deepEqual([shard(1).index, shard(1).count, shard(2).index], [1, 2, 2]);
      assert.deepEqual(shard(1).dataset, shard(2).dataset);
      assert.equal((shard(1).dataset as { rows: number }).rows, 20);
    });
  });
});

