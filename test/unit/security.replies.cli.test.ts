// Issue #32, items 1–3: what a misbehaving endpoint sends cannot put a key in a file, end a run or
// exhaust memory. A server that echoes the key in the reply's `model`, a verdict 100,000 arrays
// deep and a 300 MB reply, each against the bundled CLI as a process, by `run` and `batch collect`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeBatchServer } from '../support/fakeBatchServer';
import { FakeOpenAI, reply, type FakeRule } from '../support/fakeOpenAI';
import { POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import { peakRssArgs, requireBundle, runCli } from '../support/cliProcess';

/** Not shaped like any known key format, so only the scrub of the values in use can catch it. */
const KEY = 'zq8-echo-7f3a9c0b1d2e4f5a6b7c';
const DEEP = `{"justification":"nested","score":3,"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function assertKeyNowhere(dir: string, ...streams: string[]): void {
  for (const f of filesUnder(dir)) assert.ok(!fs.readFileSync(f, 'latin1').includes(KEY), `the key is in ${path.relative(dir, f)}`);
  for (const s of streams) assert.ok(!s.includes(KEY), `the key is printed: ${s.slice(0, 400)}`);
}

/** A template and a dataset of `n` rows in `dir`; row `special` has the response "special". */
function job(dir: string, n: number, special: number): { t: string; data: string } {
  const t = path.join(dir, 't.judge');
  fs.writeFileSync(t, POINTWISE);
  const data = writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: n }, (_, i) => ({ prompt: `q${i + 1}`, response: i + 1 === special ? 'special' : `answer ${i + 1}` })));
  return { t, data };
}

/** `batch collect ARGS --json` until no row is pending (the fake batch moves one status step per request). */
async function collectAll(args: string[], env: Record<string, string> = {}): Promise<Awaited<ReturnType<typeof runCli>>> {
  for (let i = 0; ; i++) {
    const r = await runCli(['batch', 'collect', ...args, '--json'], { env, deadlineMs: 30_000 });
    const pending = r.stdout.trim() ? (JSON.parse(r.stdout) as { pending?: number }).pending : undefined;
    if (pending === 0 || pending === undefined || i === 8) return r;
  }
}

/** A rule for the row whose response is "special" only. */
const bySpecial = (rule: FakeRule): FakeRule => (r) => (r.prompt.includes('Response: special') ? rule(r) : undefined);

describe('replies a server sends cannot leak a key, crash a run or exhaust memory (bundled CLI process)', function () {
  this.timeout(120_000);
  let dir: string;

  before(requireBundle);
  beforeEach(() => {
    dir = tempDir();
  });

  it('keeps a key echoed in the reply\'s model out of the results, the cache, stdout and stderr of run', async () => {
    const fake = await FakeOpenAI.start({ rules: [(r) => reply({ justification: 'fine', score: 4 }, { model: `judge-for-${String(r.headers.authorization)}` })] });
    try {
      const { t, data } = job(dir, 3, 0);
      const out = path.join(dir, 'r.jsonl');
      const r = await runCli(['run', t, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--api-key-env', 'JUDGE_CRED', '--cache-dir', path.join(dir, 'cache'), '--json'], {
        env: { JUDGE_CRED: KEY },
        deadlineMs: 60_000,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(fake.chats.every((c) => c.headers.authorization === `Bearer ${KEY}`), 'the server did receive the key');
      assert.deepEqual(readJsonl(out).map((l) => l['quality/model']), ['judge-for-Bearer «redacted»', 'judge-for-Bearer «redacted»', 'judge-for-Bearer «redacted»']);
      assert.ok(filesUnder(path.join(dir, 'cache')).length > 0, 'the cache was written');
      assertKeyNowhere(dir, r.stdout, r.stderr);
    } finally {
      await fake.close();
    }
  });

  it('keeps a key echoed in the model of a batch output out of the results, the state, stdout and stderr of batch collect', async () => {
    const fake = await FakeBatchServer.start();
    try {
      fake.rules = [(r) => reply({ justification: `asked by ${String(r.headers.authorization)}`, score: 4 }, { model: `judge-for-${String(r.headers.authorization)}` })];
      const { t, data } = job(dir, 3, 0);
      const state = path.join(dir, 's.json');
      const common = ['--state', state, '--base-url', fake.baseURL, '--api-key-env', 'JUDGE_CRED'];
      const env = { JUDGE_CRED: KEY };
      const submitted = await runCli(['batch', 'submit', t, '--data', data, '--model', 'm', ...common], { env, deadlineMs: 30_000 });
      assert.equal(submitted.code, 0, submitted.stderr);
      const out = path.join(dir, 'r.jsonl');
      const collected = await collectAll([...common, '--out', out], env);
      assert.equal(collected.code, 0, collected.stderr);
      const lines = readJsonl(out);
      assert.equal(lines.length, 3);
      for (const l of lines) {
        assert.equal(l['quality/model'], 'judge-for-Bearer «redacted»');
        assert.equal(l['quality/justification'], 'asked by Bearer «redacted»');
      }
      assertKeyNowhere(dir, submitted.stdout, submitted.stderr, collected.stdout, collected.stderr);
    } finally {
      await fake.close();
    }
  });

  it('fails a row whose verdict nests 100,000 arrays deep as invalid-reply, finishes the run, and a resume moves past it', async () => {
    const fake = await FakeOpenAI.start({ rules: [bySpecial(() => ({ reply: DEEP }))] });
    try {
      const { t, data } = job(dir, 30, 10);
      const out = path.join(dir, 'r.jsonl');
      const args = ['run', t, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--no-cache'];
      const first = await runCli(args, { deadlineMs: 60_000 });
      assert.equal(first.code, 1, first.stderr);
      assert.doesNotMatch(first.stderr, /call stack|internal error/i);
      const lines = readJsonl(out);
      assert.equal(lines.length, 30, 'every row has its line');
      const failed = lines.filter((l) => l['quality/error_kind'] !== undefined);
      assert.deepEqual(failed.map((l) => [l._row, l['quality/error_kind']]), [[10, 'invalid-reply']]);
      assert.match(String(failed[0]!['quality/error']), /nests arrays and objects more than 256 levels deep/);
      assert.ok(lines.filter((l) => l._row !== 10).every((l) => typeof l['quality/score'] === 'number'));

      const resumed = await runCli([...args, '--resume'], { deadlineMs: 60_000 });
      assert.equal(resumed.code, 1, resumed.stderr);
      assert.doesNotMatch(resumed.stderr, /call stack|internal error/i);
      assert.match(resumed.stderr, /29 judged row\(s\) in .* are kept, 1 failed row\(s\) will be judged again/);
      assert.equal(readJsonl(out).length, 31, 'the resume judged the failed row again and appended it');
    } finally {
      await fake.close();
    }
  });

  it('fails a batch row whose verdict nests 100,000 arrays deep, with no internal error, and collects the others', async () => {
    const fake = await FakeBatchServer.start();
    try {
      fake.rules = [bySpecial(() => ({ reply: DEEP }))];
      const { t, data } = job(dir, 6, 2);
      const state = path.join(dir, 's.json');
      const submitted = await runCli(['batch', 'submit', t, '--data', data, '--model', 'm', '--state', state, '--base-url', fake.baseURL], { deadlineMs: 30_000 });
      assert.equal(submitted.code, 0, submitted.stderr);
      const out = path.join(dir, 'r.jsonl');
      const r = await collectAll(['--state', state, '--base-url', fake.baseURL, '--out', out, '--no-repair']);
      assert.equal(r.code, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /internal error|call stack|\n\s+at /);
      const lines = readJsonl(out).sort((a, b) => Number(a._row) - Number(b._row));
      assert.deepEqual(lines.map((l) => l['quality/error_kind'] ?? 'ok'), ['ok', 'invalid-reply', 'ok', 'ok', 'ok', 'ok']);
    } finally {
      await fake.close();
    }
  });

  it('fails a row whose reply is 300 MB as reply-too-large within a memory bound, finishes the run and releases the lock', async () => {
    const fake = await FakeOpenAI.start({ rules: [bySpecial(() => ({ hugeReply: 300_000_000 }))] });
    try {
      const { t, data } = job(dir, 4, 2);
      const out = path.join(dir, 'r.jsonl');
      const rss = peakRssArgs(path.join(dir, 'peak-rss'));
      const r = await runCli(['run', t, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--no-cache', '--retries', '0'], { ...rss, deadlineMs: 90_000 });
      assert.equal(r.code, 1, r.stderr);
      const lines = readJsonl(out).sort((a, b) => Number(a._row) - Number(b._row));
      assert.deepEqual(lines.map((l) => l['quality/error_kind'] ?? 'ok'), ['ok', 'reply-too-large', 'ok', 'ok']);
      assert.match(String(lines[1]!['quality/error']), /longer than 8,388,608 bytes.*--max-reply-bytes/);
      assert.equal(lines[1]!['quality/raw_replies'], undefined, 'nothing of the reply is kept');
      assert.equal(fs.existsSync(`${out}.lock`), false, 'the lock is released');
      // The CLI's baseline is about 90 MiB; reading the whole reply took 4.6 GB.
      const peakMiB = Number(fs.readFileSync(path.join(dir, 'peak-rss'), 'utf8')) / 1024;
      assert.ok(peakMiB < 250, `peak RSS ${peakMiB.toFixed(0)} MiB`);
    } finally {
      await fake.close();
    }
  });

  it('keeps at most 8,000 characters of each failed reply in raw_replies, all of them with --keep-raw-replies, and honours --max-reply-bytes', async () => {
    const rambling = `I cannot decide. ${'blah '.repeat(200_000)}`;
    const fake = await FakeOpenAI.start({ rules: [bySpecial(() => ({ reply: rambling }))] });
    try {
      const { t, data } = job(dir, 2, 1);
      const base = ['run', t, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--no-cache'];
      const r = await runCli([...base, '--out', path.join(dir, 'a.jsonl')], { deadlineMs: 60_000 });
      assert.equal(r.code, 1, r.stderr);
      const raw = readJsonl(path.join(dir, 'a.jsonl')).find((l) => l._row === 1)!['quality/raw_replies'] as string[];
      assert.equal(raw.length, 2, 'the reply and the answer to the repair request');
      for (const text of raw) {
        assert.ok(text.length < 8_200, `${text.length} characters kept`);
        assert.match(text, /^I cannot decide\. blah/);
        assert.match(text, /… \[992,017 more characters not kept; --keep-raw-replies keeps them\]$/);
      }
      const full = await runCli([...base, '--out', path.join(dir, 'b.jsonl'), '--keep-raw-replies'], { deadlineMs: 60_000 });
      assert.equal(full.code, 1, full.stderr);
      assert.deepEqual(readJsonl(path.join(dir, 'b.jsonl')).find((l) => l._row === 1)!['quality/raw_replies'], [rambling, rambling]);
      const capped = await runCli([...base, '--out', path.join(dir, 'c.jsonl'), '--max-reply-bytes', '100000'], { deadlineMs: 60_000 });
      assert.equal(capped.code, 1, capped.stderr);
      assert.equal(readJsonl(path.join(dir, 'c.jsonl')).find((l) => l._row === 1)!['quality/error_kind'], 'reply-too-large');
    } finally {
      await fake.close();
    }
  });
});
