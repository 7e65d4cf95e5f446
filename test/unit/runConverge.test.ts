// Every run converges: a row whose request always fails (HTTP 500) or always hangs is that row's
// error after its retries, even when it is all that is left, and --resume judges it once more and
// ends; a rate-limited endpoint never fails a row; --max-outage is never cut short.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS, EXIT_OK } from '../../src/cli/io';
import { OutageGate } from '../../src/core/judge/transport/outage';
import { JudgeError } from '../../src/core/judge/transport/types';
import { FakeOpenAI, status } from '../support/fakeOpenAI';
import type { RecordedRequest } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const about = (r: RecordedRequest, response: string) => r.prompt.includes(`Response: ${response}\n`) || r.prompt.endsWith(`Response: ${response}`);

describe('every run converges', function () {
  this.timeout(60_000);
  let fake: FakeOpenAI;
  let dir: string;
  afterEach(() => fake.close());

  const setup = async (rows: number, options: Parameters<typeof FakeOpenAI.start>[0] = {}) => {
    fake = await FakeOpenAI.start(options);
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
    writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: rows }, (_, i) => ({ prompt: 'p', response: `r${i + 1}` })));
  };
  const run = async (extra: string[]) => {
    const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_OUTAGE_BASE_MS: '200' });
    const code = await runCommand(['q.judge', '--data', 'd.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--out', 'r.jsonl', ...extra], io);
    return { code, io };
  };

  it('records an always-500 row and an always-hanging row as their errors, and --resume judges them once and ends', async () => {
    await setup(12);
    fake.rules = [
      (r) => (about(r, 'r3') || about(r, 'r12') ? status(500, 'this prompt crashes the server') : undefined),
      (r) => (about(r, 'r7') || about(r, 'r11') ? { ...status(200), delayMs: 60_000 } : undefined),
    ];
    const flags = ['--retries', '1', '--timeout', '300', '--concurrency', '4', '--max-outage', '10m'];
    const first = await run(flags);
    assert.equal(first.code, EXIT_FINDINGS, first.io.err);
    const kinds = (file: string) => Object.fromEntries(readJsonl(file).map((l) => [l.response, l['quality/error_kind'] ?? 'ok']));
    const failed = Object.entries(kinds(path.join(dir, 'r.jsonl'))).filter(([, k]) => k !== 'ok');
    assert.deepEqual(failed.sort(), [['r11', 'timeout'], ['r12', 'server'], ['r3', 'server'], ['r7', 'timeout']]);
    assert.doesNotMatch(first.io.err, /paused|stayed down/, 'never an outage');

    // Only the four poison rows are left: nobody else is answered, and still no outage.
    const before = fake.chats.length;
    const again = await run([...flags, '--resume']);
    assert.equal(again.code, EXIT_FINDINGS, again.io.err);
    assert.doesNotMatch(again.io.err, /paused|stayed down|interrupted/);
    assert.match(again.io.err, /4 row\(s\) that had failed before were judged again/);
    const poison = fake.chats.slice(before).filter((r) => ['r3', 'r7', 'r11', 'r12'].some((x) => about(r, x)));
    assert.equal(poison.length, 8, 'each poison row judged once more: its first attempt and its one retry');
    const lines = readJsonl(path.join(dir, 'r.jsonl'));
    assert.equal(lines.length, 16, 'one more line for each poison row, nothing else');
  });

  it('judges 300 rows at concurrency 16 against a server allowing 20 requests/s without failing a row', async () => {
    // At most 20 requests per clock second, told only by a 429 with retry-after: 1 (no x-ratelimit headers).
    await setup(300, { rateLimit: { perSecond: 20, model: 'fixed', headers: false } });
    const { code, io } = await run(['--concurrency', '16', '--no-cache']);
    assert.equal(code, EXIT_OK, io.err);
    const lines = readJsonl(path.join(dir, 'r.jsonl'));
    assert.equal(lines.length, 300);
    assert.equal(lines.filter((l) => 'quality/error' in l).length, 0, '0 failed rows');
    assert.ok((fake.rateLimit?.refused ?? 0) > 0, 'the server did rate-limit the run');
  });

  it('never fails a row for 429s while the server answers others: a rate-limited call keeps its turn', async () => {
    // The server refuses row 1 more often than --retries allows, while it answers every other row.
    await setup(200);
    let refused = 0;
    fake.rules = [(r) => (about(r, 'r1') && refused < 8 ? (refused++, status(429, 'Rate limit reached for requests', { 'retry-after-ms': '20' })) : undefined)];
    const { code, io } = await run(['--concurrency', '2', '--retries', '5', '--no-cache']);
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(refused, 8);
    const row1 = readJsonl(path.join(dir, 'r.jsonl')).find((l) => l.response === 'r1');
    assert.equal(row1?.['quality/error'], undefined, 'row 1 got its verdict after its 429s');
  });

  it('paces to the rate the x-ratelimit headers give, and fails no row', async () => {
    await setup(150, { rateLimit: { perSecond: 50 } });
    const { code, io } = await run(['--concurrency', '16', '--no-cache']);
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(readJsonl(path.join(dir, 'r.jsonl')).filter((l) => 'quality/error' in l).length, 0);
    assert.ok((fake.rateLimit?.refused ?? 0) < 15, `most calls were spaced instead of refused (${fake.rateLimit?.refused} refused of ${fake.chats.length})`);
  });
});

describe('the pipeline behind the editor batch', function () {
  this.timeout(30_000);
  it('ends a row that always fails among rows answered from the cache as that row\'s error, without pausing', async () => {
    const { runPipeline } = await import('../../src/core/judge/run/pipeline');
    const { prepareJudge } = await import('../../src/core/judge/engine/prepare');
    const { DiskCache } = await import('../../src/core/judge/engine/cache');
    const { OpenAICompatibleClient } = await import('../../src/core/judge/transport/openaiClient');
    const fake = await FakeOpenAI.start();
    try {
      const dir = tempDir();
      writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: 20 }, (_, i) => ({ prompt: 'p', response: `r${i + 1}` })));
      const prepared = prepareJudge(POINTWISE);
      assert.ok(prepared.ok);
      const outages: unknown[] = [];
      const common = {
        judge: prepared.judge,
        client: new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 5_000 }),
        settings: { model: 'm', structured: 'json_schema' as const, schemaName: 'quality' },
        dataFile: path.join(dir, 'd.jsonl'),
        outFile: path.join(dir, 'r.jsonl'),
        cache: new DiskCache(path.join(dir, 'cache')),
        retry: { retries: 1, baseDelayMs: 20, maxDelayMs: 50 },
        outage: { maxOutageMs: 10 * 60_000, baseDelayMs: 5_000 },
        onOutage: (s: unknown) => outages.push(s),
      };
      fake.rules = [(r) => (about(r, 'r20') ? status(500, 'this prompt crashes the server') : undefined)];
      assert.equal((await runPipeline({ ...common, mode: 'new' })).stop, 'done');
      // Again: 19 rows come from the cache, so the endpoint answers nothing but the probe.
      const before = fake.chats.length;
      const again = await runPipeline({ ...common, mode: 'overwrite' });
      assert.equal(again.stop, 'done');
      assert.deepEqual([again.stats.cacheHits, again.stats.failed], [19, 1]);
      assert.deepEqual(outages, [], 'never paused');
      assert.equal(fake.chats.length - before, 3, "the poison row's two attempts and one probe");
    } finally {
      await fake.close();
    }
  });
});

describe('--max-outage', () => {
  it('stops the run no earlier than the outage limit, however the tries are spaced', async () => {
    let exceededAt: number | undefined;
    const gate = new OutageGate({ maxOutageMs: 1_000, baseDelayMs: 300, maxDelayMs: 5_000 }, { onExceeded: () => (exceededAt = Date.now()) });
    const error = new JudgeError('http', 'server error (503): down', { status: 503, retryable: true });
    const started = Date.now();
    // One call failing again at every try, the probe failing too: an outage from the first give-up.
    while (await gate.shouldRetry(error, gate.successes, {}, undefined, async () => false));
    assert.ok(exceededAt !== undefined, 'the outage limit stopped it');
    assert.ok(exceededAt - started >= 1_000, `stopped ${exceededAt - started} ms after the outage began, before the 1 s allowed`);
    gate.dispose();
  });

  it('ends the outage as soon as the probe is answered, and the failure stands as the row error', async () => {
    const gate = new OutageGate({ maxOutageMs: 60_000, baseDelayMs: 10 });
    const error = new JudgeError('http', 'server error (500): this prompt crashes the server', { status: 500, retryable: true });
    assert.equal(await gate.shouldRetry(error, gate.successes, {}, undefined, async () => true), false);
    assert.equal(gate.state, undefined, 'no outage');
    assert.equal(gate.ownFailures, 1);
    gate.dispose();
  });

  it('gives a call that gave up on 429s one more try when the probe is answered (the limit lifted), then lets its failure stand', async () => {
    // A storm that ends just as the probe goes out: the rows were not the problem.
    const gate = new OutageGate({ maxOutageMs: 60_000, baseDelayMs: 10 });
    const limited = new JudgeError('rate-limit', 'rate limited (429): slow down', { status: 429 });
    const call = {};
    assert.equal(await gate.shouldRetry(limited, gate.successes, call, undefined, async () => true), true, 'tries again');
    assert.equal(await gate.shouldRetry(limited, gate.successes, call, undefined, async () => true), false, 'a 429 every time is the row\'s own');
    assert.equal(gate.ownFailures, 1);
    gate.dispose();
  });
});
