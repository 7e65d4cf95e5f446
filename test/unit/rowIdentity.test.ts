// Rows are identified by their inputs (`_key`), never by position alone: a resume after the
// dataset changed keeps each verdict with its own inputs, and merge and compare refuse files of
// different datasets, naming the first row that differs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareCommand } from '../../src/cli/commands/compare';
import { mergeCommand } from '../../src/cli/commands/merge';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { acquireResultsLock } from '../../src/core/judge/run/lock';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { captureIO, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TEMPLATE = path.join(ROOT, 'examples', 'helpfulness.judge');
const byRow = (lines: Record<string, unknown>[]) => {
  const last = new Map<number, Record<string, unknown>>();
  for (const l of lines) last.set(Number(l._row), l);
  return [...last.entries()].sort((a, b) => a[0] - b[0]).map(([, l]) => l);
};

describe('row identity by _key', function () {
  this.timeout(30_000);
  let fake: FakeOpenAI;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') };
  });
  afterEach(() => fake.close());

  const records = (n: number, tag = '') => Array.from({ length: n }, (_, i) => ({ prompt: `question ${i}${tag}`, response: `answer number ${i}${tag}` }));
  async function run(data: string, out: string, ...more: string[]) {
    const io = captureIO(dir, env);
    const code = await runCommand([TEMPLATE, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--no-cache', '--out', out, ...more], io);
    return { code, err: io.err };
  }

  it('after a row is inserted at the top, --resume makes one request and every verdict stays with its own inputs', async () => {
    const rows = records(30);
    const data = writeJsonl(path.join(dir, 'd.jsonl'), rows);
    const out = path.join(dir, 'r.jsonl');
    assert.equal((await run(data, out)).code, EXIT_OK);
    const first = fake.chats.length;

    const inserted = [{ prompt: 'a brand new question', response: 'a brand new answer' }, ...rows];
    writeJsonl(data, inserted);
    const resumed = await run(data, out, '--resume');
    assert.equal(resumed.code, EXIT_OK, resumed.err);
    assert.equal(fake.chats.length - first, 1, 'only the new row is judged');
    assert.match(resumed.err, /30 verdict\(s\) carried to the row number their inputs have now/);

    // The truth: the same judge on the new dataset from scratch.
    const fresh = path.join(dir, 'fresh.jsonl');
    assert.equal((await run(data, fresh)).code, EXIT_OK);
    const got = byRow(readJsonl(out));
    const want = byRow(readJsonl(fresh));
    assert.equal(got.length, 31);
    for (const [i, line] of got.entries()) {
      assert.equal(line._row, i + 1);
      assert.equal(line.response, inserted[i]!.response, `row ${i + 1} carries its own inputs`);
      assert.equal(line._key, want[i]!._key);
      assert.equal(line['helpfulness/score'], want[i]!['helpfulness/score'], `row ${i + 1} keeps the verdict of its own inputs`);
    }
  });

  it('--resume against another dataset keeps none of the old verdicts and says how many lines it set aside', async () => {
    const data = writeJsonl(path.join(dir, 'd.jsonl'), records(8));
    const out = path.join(dir, 'r.jsonl');
    assert.equal((await run(data, out)).code, EXIT_OK);
    const other = writeJsonl(path.join(dir, 'other.jsonl'), records(8, ' (other set)'));
    const before = fake.chats.length;
    const resumed = await run(other, out, '--resume');
    assert.equal(resumed.code, EXIT_OK, resumed.err);
    assert.equal(fake.chats.length - before, 8, 'every row of the other dataset is judged');
    assert.match(resumed.err, /8 line\(s\) set aside: their _key is not the inputs of the dataset row at their _row/);
    const lines = byRow(readJsonl(out));
    lines.forEach((l) => assert.match(String(l.response), /other set/));
  });

  it('merge refuses shards of two datasets with exit 2 and names the first row that differs', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), records(6));
    const b = writeJsonl(path.join(dir, 'b.jsonl'), records(6, ' (b)'));
    assert.equal((await run(a, path.join(dir, 'ra.jsonl'))).code, EXIT_OK);
    assert.equal((await run(b, path.join(dir, 'rb.jsonl'))).code, EXIT_OK);
    const io = captureIO(dir, env);
    const code = await mergeCommand([path.join(dir, 'ra.jsonl'), path.join(dir, 'rb.jsonl'), '--out', path.join(dir, 'm.jsonl')], io);
    assert.equal(code, EXIT_USAGE);
    assert.match(io.err, /ra\.jsonl:\d+ and rb\.jsonl:\d+ are both row \d+ but of different inputs \(_key [0-9a-f]{16} vs [0-9a-f]{16}\)/);
    assert.equal(fs.existsSync(path.join(dir, 'm.jsonl')), false, 'nothing is written');
  });

  it('merge refuses to write a file another writer holds, or to read a shard a run is still writing', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), records(4));
    assert.equal((await run(a, path.join(dir, 'ra.jsonl'), '--shard', '1/2')).code, EXIT_OK);
    assert.equal((await run(a, path.join(dir, 'rb.jsonl'), '--shard', '2/2')).code, EXIT_OK);
    const merge = async () => {
      const io = captureIO(dir, env);
      return { code: await mergeCommand([path.join(dir, 'ra.jsonl'), path.join(dir, 'rb.jsonl'), '--out', path.join(dir, 'm.jsonl')], io), err: io.err };
    };
    for (const held of ['rb.jsonl', 'm.jsonl']) {
      const lock = await acquireResultsLock(path.join(dir, held), { command: 'judge-studio run' });
      try {
        const r = await merge();
        assert.equal(r.code, EXIT_USAGE, held);
        assert.match(r.err, new RegExp(`${held.replace('.', '\\.')} is being written by another run`));
      } finally {
        await lock.release();
      }
    }
    assert.equal((await merge()).code, EXIT_OK);
    assert.equal(readJsonl(path.join(dir, 'm.jsonl')).length, 4);
  });

  it('compare refuses runs of two datasets with exit 2 and names the rows', async () => {
    const a = writeJsonl(path.join(dir, 'a.jsonl'), records(4));
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [...records(2), ...records(2, ' (b)').map((r, i) => ({ ...r, prompt: `question ${i + 2} (b)` }))]);
    assert.equal((await run(a, path.join(dir, 'ra.jsonl'))).code, EXIT_OK);
    assert.equal((await run(b, path.join(dir, 'rb.jsonl'))).code, EXIT_OK);
    const io = captureIO(dir, env);
    const code = await compareCommand([path.join(dir, 'ra.jsonl'), path.join(dir, 'rb.jsonl'), '--metric', 'helpfulness'], io);
    assert.equal(code, EXIT_USAGE);
    assert.match(io.err, /rows 3, 4 differ between the two files/);
  });
});

describe('compare reads a weighted-criteria judge by its integer overall, as calibrate does', () => {
  it('counts no flip when only the unrounded overall moved within the same integer', async () => {
    const dir = tempDir();
    const line = (row: number, score: number, rounded: number, human: number) => ({
      prompt: `p${row}`,
      response: `r${row}`,
      _row: row,
      'q/score': score,
      'q/score_rounded': rounded,
      'q/criteria': { accuracy: { score: rounded } },
      'q/human_rating': human,
      'q/template_hash': 'aaaaaaaaaaaa',
    });
    const a = writeJsonl(path.join(dir, 'a.jsonl'), [line(1, 4.6, 5, 5), line(2, 3.2, 3, 4), line(3, 1.6, 2, 2)]);
    const b = writeJsonl(path.join(dir, 'b.jsonl'), [line(1, 4.7, 5, 5), line(2, 3.4, 3, 4), line(3, 1.5, 2, 2)]);
    const io = captureIO(dir);
    const code = await compareCommand([a, b, '--metric', 'q', '--json'], io);
    assert.equal(code, EXIT_OK, io.err);
    const report = JSON.parse(io.out) as { flipped: number; agreement: number; human: { a: { accuracy: number } } };
    assert.equal(report.flipped, 0);
    assert.equal(report.agreement, 1);
    assert.equal(report.human.a.accuracy, 2 / 3, 'the rounded overall against the human, as calibrate computes it');
  });
});
