// The bundled CLI as a real process: Ctrl-C keeps a valid results file, --resume after an
// interrupt or a hard kill finishes the rest without duplicate rows, and a second writer of the
// same results file is refused while the first runs.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { readJsonl, tempDir, waitFor, writeJsonl } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const TEMPLATE = path.join(ROOT, 'examples', 'helpfulness.judge');
const ROWS = 24;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function start(args: string[], env: Record<string, string>): { child: ChildProcess; exit: Promise<Exit> } {
  const { OPENAI_API_KEY: _key, OPENAI_BASE_URL: _url, JUDGE_STUDIO_BASE_URL: _jurl, ...rest } = process.env;
  const child = spawn(process.execPath, [CLI, 'run', ...args], { env: { ...rest, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout!.resume();
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, exit };
}

function lineCount(file: string): number {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').length - 1 : 0;
}

function assertComplete(file: string): void {
  const lines = readJsonl(file);
  const rows = lines.map((l) => l._row as number).sort((a, b) => a - b);
  assert.deepEqual(rows, Array.from({ length: ROWS }, (_, i) => i + 1), 'every row exactly once');
  for (const l of lines) assert.ok(Number.isInteger(l['helpfulness/score']), `row ${String(l._row)} has a score`);
}

describe('judge-studio run (bundled CLI process)', function () {
  this.timeout(60_000);
  let fake: FakeOpenAI;
  let dir: string;
  let args: string[];
  let out: string;
  let env: Record<string, string>;

  before(function () {
    if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build it with \`node esbuild.mjs\` first`);
  });

  beforeEach(async () => {
    // Slow replies so the run is still going when the test interrupts it.
    fake = await FakeOpenAI.start({ rules: [() => ({ ...reply({ justification: 'j', score: 3 }), delayMs: 150 })] });
    dir = tempDir();
    out = path.join(dir, 'r.jsonl');
    const data = writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: ROWS }, (_, i) => ({ prompt: `q${i}`, response: `r${i}` })));
    args = [TEMPLATE, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--concurrency', '2'];
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_PROGRESS_MS: '100' };
  });
  afterEach(() => fake.close());

  it('stops on SIGINT leaving a valid JSONL file of finished rows, and --resume finishes the rest', async () => {
    const { child, exit } = start(args, env);
    await waitFor(() => lineCount(out) >= 3, 20_000, 'three finished rows');
    child.kill('SIGINT');
    const stopped = await exit;
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.match(stopped.stderr, /interrupted: \d+ row\(s\) not judged; run again with --resume/);
    const kept = readJsonl(out);
    assert.ok(kept.length >= 3 && kept.length < ROWS, `kept ${kept.length} rows`);
    assert.equal(new Set(kept.map((l) => l._row)).size, kept.length, 'no duplicate rows');

    const callsBefore = fake.chats.length;
    const resumed = await start([...args, '--resume', '--no-cache'], env).exit;
    assert.equal(resumed.code, 0, resumed.stderr);
    assertComplete(out);
    assert.equal(fake.chats.length - callsBefore, ROWS - kept.length, 'only the missing rows are judged');
  });

  it('finishes with --resume after a hard kill, with no duplicate rows', async () => {
    const { child, exit } = start(args, env);
    await waitFor(() => lineCount(out) >= 2, 20_000, 'two finished rows');
    child.kill('SIGKILL');
    assert.equal((await exit).signal, 'SIGKILL');
    const resumed = await start([...args, '--resume'], env).exit;
    assert.equal(resumed.code, 0, resumed.stderr);
    assertComplete(out);
  });

  it('refuses a second --resume on the same --out while the first runs (exit 2, naming it), and no row is judged twice', async () => {
    // Slow enough that the first run is still going when the second process has started.
    fake.rules = [() => ({ ...reply({ justification: 'j', score: 3 }), delayMs: 600 })];
    const first = start([...args, '--resume'], env);
    await waitFor(() => fs.existsSync(`${out}.lock`), 20_000, 'the first run to take the lock');
    const second = await start([...args, '--resume'], env).exit;
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, new RegExp(`r\\.jsonl is being written by another run \\(pid ${first.child.pid} on `));
    assert.match(second.stderr, /running "judge-studio run .*--out/);
    const done = await first.exit;
    assert.equal(done.code, 0, done.stderr);
    assertComplete(out);
    assert.equal(fake.chats.length, ROWS, 'every row was judged once');
    assert.equal(fs.existsSync(`${out}.lock`), false, 'the lock is gone with its run');
  });

  it('takes over the lock of a run that was killed', async () => {
    const { child, exit } = start(args, env);
    await waitFor(() => lineCount(out) >= 2, 20_000, 'two finished rows');
    child.kill('SIGKILL');
    await exit;
    assert.ok(fs.existsSync(`${out}.lock`), 'a hard kill leaves its lock behind');
    const resumed = await start([...args, '--resume'], env).exit;
    assert.equal(resumed.code, 0, resumed.stderr);
    assertComplete(out);
  });
});
