// The calibration view reads a results file as a run appends to it: only the new bytes, the same
// rows and skips as a whole read, and a fresh start when the file is rewritten or truncated.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrateGrowing, GrowingFile, loadFile } from '../../src/extension/calibrate/load';

const line = (i: number, human = 1 + (i % 5), score = 1 + ((i * 7) % 5)) => `${JSON.stringify({ prompt: `q${i}`, response: 'r'.repeat(i % 40), 'm/human_rating': human, 'm/score': score, _row: i })}\n`;

describe('GrowingFile (calibration of a file being appended to)', function () {
  this.timeout(30_000);
  let dir = '';
  let file = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-studio-growing-'));
    file = path.join(dir, 'results.jsonl');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads only the appended bytes and gives what a whole read gives', async () => {
    fs.writeFileSync(file, line(1) + line(2) + 'not json\n');
    const g = new GrowingFile(file);
    assert.deepEqual(await g.read(), await loadFile(file));
    assert.equal(g.lastRead.mode, 'restarted');
    const more = line(4) + line(5);
    fs.appendFileSync(file, more);
    assert.deepEqual(await g.read(), await loadFile(file));
    assert.deepEqual(g.lastRead, { mode: 'appended', bytes: Buffer.byteLength(more) });
    await g.read();
    assert.deepEqual(g.lastRead, { mode: 'appended', bytes: 0 });
  });

  it('counts a last line that has no line break yet, and reads it once it is finished', async () => {
    fs.writeFileSync(file, line(1) + line(2).trimEnd());
    const g = new GrowingFile(file);
    assert.equal((await g.read()).rows.length, 2);
    fs.appendFileSync(file, '\n' + line(3));
    const data = await g.read();
    assert.deepEqual(data, await loadFile(file));
    assert.deepEqual(data.rows.map((r) => r.row), [1, 2, 3]);
  });

  it('starts over when the file is truncated or rewritten', async () => {
    fs.writeFileSync(file, line(1) + line(2) + line(3));
    const g = new GrowingFile(file);
    await g.read();
    fs.writeFileSync(file, line(9));
    assert.deepEqual(await g.read(), await loadFile(file));
    assert.equal(g.lastRead.mode, 'restarted');
    fs.writeFileSync(file, line(7) + line(8) + line(9) + line(10));
    assert.deepEqual(await g.read(), await loadFile(file));
    assert.equal(g.lastRead.mode, 'restarted');
  });

  it('keeps up with a 100,000-row results file: an appended row costs a read of that row only', async () => {
    const n = 100_000;
    const fd = fs.openSync(file, 'w');
    for (let i = 1; i <= n; i += 1000) fs.writeSync(fd, Array.from({ length: 1000 }, (_, k) => line(i + k)).join(''));
    fs.closeSync(fd);
    const g = new GrowingFile(file);
    const first = await calibrateGrowing(g, 'm', 'results.jsonl');
    assert.ok(first.ok && first.report.n === n);
    fs.appendFileSync(file, line(n + 1, 5, 5));
    const started = performance.now();
    const next = await calibrateGrowing(g, 'm', 'results.jsonl');
    const ms = performance.now() - started;
    assert.ok(next.ok && next.report.n === n + 1);
    assert.deepEqual(g.lastRead, { mode: 'appended', bytes: Buffer.byteLength(line(n + 1, 5, 5)) });
    if (process.env.GROWING_STATS) console.log(`update of a ${n}-row file after one appended row: ${ms.toFixed(0)} ms`);
    // Reading is incremental; the report itself is recomputed from the rows in memory.
    assert.ok(ms < 3000, `update took ${ms.toFixed(0)} ms`);
  });

  it('hands the event loop back while it recalculates a large file, so the editor stays responsive', async () => {
    const fd = fs.openSync(file, 'w');
    for (let i = 1; i <= 20_000; i += 1000) fs.writeSync(fd, Array.from({ length: 1000 }, (_, k) => line(i + k)).join(''));
    fs.closeSync(fd);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const out = await calibrateGrowing(new GrowingFile(file), 'm', 'results.jsonl');
      assert.ok(out.ok && out.report.n === 20_000);
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 3, `other work ran ${ticks} time(s) during the recalculation`);
  });

  it('lets the last line per _row stand in the view as in the CLI', async () => {
    fs.writeFileSync(file, line(1, 5, 5) + line(2, 4, 1) + line(2, 4, 4));
    const out = await calibrateGrowing(new GrowingFile(file), 'm', 'results.jsonl');
    assert.ok(out.ok);
    assert.deepEqual([out.report.n, out.report.accuracy], [2, 1]);
  });

  it('reports a file that is not text as an error value naming the file as shown', async () => {
    fs.writeFileSync(file, Buffer.from([0, 1, 2, 3, 0, 0]));
    const out = await calibrateGrowing(new GrowingFile(file), 'm', 'shown.jsonl');
    assert.equal(out.ok, false);
    assert.match(!out.ok ? out.error : '', /^cannot read dataset shown\.jsonl: not a text file/);
  });
});
