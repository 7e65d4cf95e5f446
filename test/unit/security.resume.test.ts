// Issue #32, items 6 and 7 (and 8's tampered-manifest hint): what a resume takes from the files
// beside a results file. A label changed in the dataset reaches the results without a request; a
// tampered manifest can neither write a cache outside the folders, nor multiply the requests, nor
// offer its own URL as a command to copy.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrateCommand } from '../../src/cli/commands/calibrate';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../../src/cli/io';
import { FakeOpenAI, reply, status } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

describe('resume takes from the files beside a results file only what they may decide', function () {
  this.timeout(30_000);
  let fake: FakeOpenAI;
  let dir: string;
  const env = () => ({ JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
  const manifest = () => path.join(dir, 'r.jsonl.run.json');
  const editManifest = (f: (m: Record<string, any>) => void) => {
    const m = JSON.parse(fs.readFileSync(manifest(), 'utf8')) as Record<string, any>;
    f(m);
    fs.writeFileSync(manifest(), JSON.stringify(m));
  };

  beforeEach(async () => {
    fake = await FakeOpenAI.start({ rules: [() => reply({ justification: 'fine', score: 3 })] });
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
  });
  afterEach(() => fake.close());

  const rows = (labels: number[]) => labels.map((label, i) => ({ prompt: `q${i + 1}`, response: `r${i + 1}`, 'quality/human_rating': label }));
  const run = async (args: string[]) => {
    const io = captureIO(dir, env());
    const code = await runCommand(['q.judge', '--data', 'd.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--out', 'r.jsonl', ...args], io);
    return { code, err: io.err };
  };

  it('writes a human label changed in the dataset after the run into the results on --resume, without a request, and calibrate uses it', async () => {
    writeJsonl(path.join(dir, 'd.jsonl'), rows([3, 3, 2, 3, 3, 3]));
    assert.equal((await run([])).code, EXIT_OK);
    writeJsonl(path.join(dir, 'd.jsonl'), rows([3, 3, 3, 3, 3, 3]));
    const sent = fake.chats.length;
    const resumed = await run(['--resume']);
    assert.equal(resumed.code, EXIT_OK, resumed.err);
    assert.equal(fake.chats.length, sent, 'the inputs did not change: nothing is judged again');
    assert.match(resumed.err, /1 row\(s\) have human labels that changed in the dataset since they were judged: their verdicts were written again with the dataset's labels \(no request\)/);
    const row3 = readJsonl(path.join(dir, 'r.jsonl')).filter((l) => l._row === 3);
    assert.deepEqual(row3.map((l) => [l['quality/human_rating'], l['quality/score']]), [[2, 3], [3, 3]], 'the old line stays, the new one stands');
    const io = captureIO(dir, env());
    assert.equal(await calibrateCommand(['r.jsonl', '--metric', 'quality', '--json'], io), EXIT_OK, io.err);
    assert.equal((JSON.parse(io.out) as { accuracy: number; n: number }).accuracy, 1, 'calibrate reads the changed label');
    // Nothing changed since: a second resume writes nothing.
    const again = await run(['--resume']);
    assert.doesNotMatch(again.err, /human labels that changed/);
    assert.equal(readJsonl(path.join(dir, 'r.jsonl')).length, 7);
  });

  /** A 15-row run whose row 15 failed, so a resume has one row to judge again. */
  const failedRun = async (args: string[] = []) => {
    writeJsonl(path.join(dir, 'd.jsonl'), rows(Array.from({ length: 15 }, () => 3)));
    fake.rules = [(r) => (r.prompt.includes('Response: r15') ? status(400, 'bad') : undefined), () => reply({ justification: 'fine', score: 3 })];
    assert.equal((await run(args)).code, EXIT_FINDINGS);
    fake.rules = [() => reply({ justification: 'fine', score: 3 })];
  };

  it("refuses a tampered manifest's samples (or retries, rows…) unless the command line repeats them, sending nothing", async () => {
    await failedRun();
    editManifest((m) => Object.assign(m.flags, { samples: '1000', rows: '1-' }));
    const sent = fake.chats.length;
    await assert.rejects(
      runCommand(['--resume', '--out', 'r.jsonl', '--base-url', fake.baseURL], captureIO(dir, env())),
      (e: unknown) => e instanceof UsageError && /r\.jsonl\.run\.json asks for --samples 1000 --rows 1-, which decide how many requests the run sends; a manifest is a file anyone can edit/.test(e.message),
    );
    assert.equal(fake.chats.length, sent, 'no request was sent');
    const io = captureIO(dir, env());
    assert.equal(await runCommand(['--resume', '--out', 'r.jsonl', '--base-url', fake.baseURL, '--samples', '1', '--rows', '1-'], io), EXIT_OK, io.err);
    assert.equal(fake.chats.length - sent, 1, 'the one failed row, once');
  });

  it("refuses a tampered manifest's cache-dir outside the working and results folders, and writes nothing there", async () => {
    await failedRun(['--cache-dir', 'cache']);
    assert.equal(JSON.parse(fs.readFileSync(manifest(), 'utf8')).flags['cache-dir'], 'cache', 'kept relative to the results folder');
    const outside = path.join(path.dirname(dir), `outside-${path.basename(dir)}`);
    editManifest((m) => (m.flags['cache-dir'] = outside));
    await assert.rejects(
      runCommand(['--resume', '--out', 'r.jsonl', '--base-url', fake.baseURL], captureIO(dir, env())),
      (e: unknown) => e instanceof UsageError && e.message.includes(`names a cache-dir folder outside this folder and the results folder (${outside}); pass it again (--cache-dir)`),
    );
    assert.equal(fs.existsSync(outside), false);
    editManifest((m) => (m.flags['cache-dir'] = 'cache'));
    const io = captureIO(dir, env());
    assert.equal(await runCommand(['--resume', '--out', 'r.jsonl', '--base-url', fake.baseURL], io), EXIT_OK, io.err);
    assert.match(io.err, /resuming the run recorded in r\.jsonl\.run\.json: .* --cache-dir cache\n/);
  });

  it("refuses a manifest whose base URL was changed, without offering that URL as a command to run", async () => {
    await failedRun();
    editManifest((m) => (m.baseURL = 'https://collector.example/v1'));
    await assert.rejects(runCommand(['--resume', '--out', 'r.jsonl', '--base-url', fake.baseURL], captureIO(dir, env())), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, /base URL https:\/\/collector\.example\/v1 in the manifest, http:\/\/127\.0\.0\.1:\d+\/v1 now/);
      assert.doesNotMatch(e.message, /judge-studio run|--base-url https:\/\/collector/);
      return true;
    });
  });
});
