// One writer per results file: the lock beside it names its holder, refuses a second writer,
// and is taken over when its holder is gone (a dead pid, or a pid now used by another process).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { acquireResultsLock, lockFileFor, ResultsLockedError, withResultsLock } from '../../src/core/judge/run/lock';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, waitFor, writeJsonl } from '../support/judgeFixtures';

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('results file lock', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'r.jsonl');
  });

  it('refuses a second writer, naming the holder, until the first releases', async () => {
    const lock = await acquireResultsLock(file, { command: 'judge-studio run q.judge --data d.jsonl' });
    await assert.rejects(acquireResultsLock(file), (e: unknown) => {
      assert.ok(e instanceof ResultsLockedError);
      assert.equal(e.holder?.pid, process.pid);
      assert.match(e.message, new RegExp(`r\\.jsonl is being written by another run \\(pid ${process.pid} on ${os.hostname()}, started .*, running "judge-studio run q\\.judge --data d\\.jsonl", since `));
      return true;
    });
    await lock.release();
    assert.equal(fs.existsSync(lockFileFor(file)), false);
    await (await acquireResultsLock(file)).release();
  });

  it('takes over a lock whose process is gone', async () => {
    fs.writeFileSync(lockFileFor(file), JSON.stringify({ pid: deadPid(), host: os.hostname(), since: '2020-01-01T00:00:00Z', token: 'old' }));
    const lock = await acquireResultsLock(file);
    assert.equal(JSON.parse(fs.readFileSync(lockFileFor(file), 'utf8')).pid, process.pid);
    await lock.release();
  });

  it('takes over a lock whose pid now belongs to a process that started at another time', async function () {
    // A process's start time is read from /proc/<pid>/stat, which only Linux has; elsewhere the lock
    // falls back to the pid alone, so this case cannot arise there.
    if (process.platform !== 'linux') this.skip();
    // Our own pid, but recorded with another start: the pid was reused after its holder died.
    fs.writeFileSync(lockFileFor(file), JSON.stringify({ pid: process.pid, host: os.hostname(), startKey: 'another-boot:1', since: '2020-01-01T00:00:00Z', token: 'old' }));
    const lock = await acquireResultsLock(file);
    await lock.release();
  });

  it("never takes over another machine's lock: it cannot tell whether that run is alive", async () => {
    fs.writeFileSync(lockFileFor(file), JSON.stringify({ pid: deadPid(), host: 'build-server-7', since: '2020-01-01T00:00:00Z', token: 'other' }));
    await assert.rejects(acquireResultsLock(file), /pid \d+ on build-server-7.*If that machine no longer runs it, delete .*r\.jsonl\.lock/);
  });

  it('releases the lock however the work ends', async () => {
    await assert.rejects(withResultsLock(file, async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(fs.existsSync(lockFileFor(file)), false);
  });

  it('never removes a lock that is not its own', async () => {
    const lock = await acquireResultsLock(file);
    fs.writeFileSync(lockFileFor(file), JSON.stringify({ pid: process.pid, host: os.hostname(), since: 'now', token: 'someone-else' }));
    await lock.release();
    assert.ok(fs.existsSync(lockFileFor(file)), "another writer's lock stays");
  });
});

describe('run --resume: one writer per results file', () => {
  let fake: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    fake = await FakeOpenAI.start({ rules: [() => ({ ...reply({ justification: 'j', score: 3 }), delayMs: 40 })] });
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
    writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: 30 }, (_, i) => ({ prompt: 'p', response: `r${i + 1}` })));
  });
  afterEach(() => fake.close());

  it('refuses the second of two concurrent resumes with exit 2 and the holder; no row is written twice', async () => {
    const args = ['q.judge', '--data', 'd.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--concurrency', '2', '--out', 'r.jsonl', '--resume'];
    const env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') };
    const io1 = captureIO(dir, env);
    const first = runCommand(args, io1);
    await waitFor(() => fs.existsSync(path.join(dir, 'r.jsonl.lock')), 10_000, 'the first run to take the lock');
    const io2 = captureIO(dir, env);
    assert.equal(await runCommand(args, io2), EXIT_USAGE);
    assert.match(io2.err, /r\.jsonl is being written by another run \(pid \d+ .*running "judge-studio run q\.judge --data d\.jsonl --out r\.jsonl"/);
    assert.equal(await first, EXIT_OK, io1.err);
    const rows = readJsonl(path.join(dir, 'r.jsonl')).map((l) => l._row as number);
    assert.equal(rows.length, 30);
    assert.equal(new Set(rows).size, 30, 'no duplicate line');
    assert.equal(fake.chats.length, 30, 'each row judged once');
  });
});
