// `judge-studio batch` against a local Files + Batches API driven through the openai SDK:
// submit → status → collect writes what `run` writes; expiry, errors, invalid replies, repairs
// and cancellation give failed rows with their kind, never a score; collect only adds what is new.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { batchCommand } from '../../src/cli/commands/batch';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { sdkBatchApi } from '../../src/core/batch/api';
import { readState } from '../../src/core/batch/state';
import { submitBatches } from '../../src/core/batch/submit';
import { createSdk } from '../../src/core/judge/transport/openaiClient';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import { FakeBatchServer } from '../support/fakeBatchServer';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, PAIRWISE, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const byRow = (lines: Record<string, unknown>[]) => [...lines].sort((a, b) => Number(a._row) - Number(b._row));
const without = (line: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(line).filter(([k]) => !keys.includes(k)));

describe('judge-studio batch (provider Batch API)', function () {
  this.timeout(30_000);
  let fake: FakeBatchServer;
  let dir: string;
  let env: Record<string, string>;
  let state: string;

  beforeEach(async () => {
    fake = await FakeBatchServer.start();
    dir = tempDir();
    // status, collect and cancel use the endpoint the configuration gives, which must be the state's.
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_BASE_URL: fake.baseURL };
    state = path.join(dir, 'job.state.json');
  });
  afterEach(() => fake.close());

  async function batch(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const io = captureIO(dir, env);
    const code = await batchCommand(args, io);
    return { code, out: io.out, err: io.err };
  }

  function setup(template: string, records: Record<string, unknown>[]): { tpl: string; data: string } {
    const tpl = path.join(dir, 't.judge');
    fs.writeFileSync(tpl, template);
    return { tpl, data: writeJsonl(path.join(dir, 'd.jsonl'), records) };
  }

  const submit = async (tpl: string, data: string, ...more: string[]) => {
    const r = await batch('submit', tpl, '--data', data, '--state', state, '--base-url', fake.baseURL, '--model', 'm', ...more);
    assert.equal(r.code, EXIT_OK, r.err);
    return r;
  };
  /** Retrieves until every batch is finished (each retrieve moves the fake one step). */
  const untilDone = async (...endpoint: string[]) => {
    for (let i = 0; i < 10; i++) {
      const s = JSON.parse((await batch('status', '--state', state, '--json', ...endpoint)).out) as { done: boolean };
      if (s.done) return;
    }
    assert.fail('batches never finished');
  };

  for (const [kind, template, records, samples] of [
    ['pointwise', POINTWISE, Array.from({ length: 9 }, (_, i) => ({ prompt: `q${i}`, response: `answer ${'x'.repeat(i)}` })), '1'],
    ['pairwise (both swap orders, 2 samples)', PAIRWISE, Array.from({ length: 6 }, (_, i) => ({ prompt: `q${i}`, response_a: 'a'.repeat(i), response_b: 'b'.repeat(6 - i) })), '2'],
  ] as const) {
    it(`submit → status → collect writes the lines run writes, ${kind}, with the same request bodies`, async () => {
      const { tpl, data } = setup(template, [...records]);
      const chat = await FakeOpenAI.start();
      try {
        const runOut = path.join(dir, 'run.jsonl');
        const io = captureIO(dir, env);
        assert.equal(await runCommand([tpl, '--data', data, '--base-url', chat.baseURL, '--model', 'm', '--no-cache', '--samples', samples, '--out', runOut], io), EXIT_OK, io.err);

        fake.progressSteps = 3; // in progress for a few retrieves, so a collect can come too early
        await submit(tpl, data, '--samples', samples);
        const first = JSON.parse((await batch('status', '--state', state, '--json')).out);
        assert.equal(first.batches[0].status, 'in_progress');
        const early = await batch('collect', '--state', state, '--out', path.join(dir, 'b.jsonl'));
        assert.equal(early.code, EXIT_FINDINGS, 'rows still pending');
        assert.match(early.err, /still pending/);
        await untilDone();
        const done = await batch('collect', '--state', state, '--out', path.join(dir, 'b.jsonl'));
        assert.equal(done.code, EXIT_OK, done.err);

        const batchLines = byRow(readJsonl(path.join(dir, 'b.jsonl')));
        const runLines = byRow(readJsonl(runOut));
        const metric = Object.keys(runLines[0]!).find((k) => k.endsWith('/template_hash'))!.split('/')[0]!;
        assert.equal(batchLines.length, records.length);
        batchLines.forEach((l) => assert.match(String(l[`${metric}/batch_id`]), /^batch-/));
        assert.deepEqual(batchLines.map((l) => without(l, `${metric}/batch_id`)), runLines);
        // The very bodies run sent, line for line.
        const bodies = (xs: unknown[]) => xs.map((b) => JSON.stringify(b)).sort();
        assert.deepEqual(bodies(fake.ran.map((r) => r.body)), bodies(chat.chats.map((r) => r.body)));
      } finally {
        await chat.close();
      }
    });
  }

  it('collect is idempotent: a second collect adds nothing and downloads nothing again', async () => {
    const { tpl, data } = setup(POINTWISE, Array.from({ length: 4 }, (_, i) => ({ prompt: `q${i}`, response: `r${i}` })));
    await submit(tpl, data);
    await untilDone();
    const out = path.join(dir, 'b.jsonl');
    assert.equal((await batch('collect', '--state', state, '--out', out)).code, EXIT_OK);
    const before = fs.readFileSync(out, 'utf8');
    const downloads = fake.log.filter((l) => l.includes('/content')).length;
    const again = await batch('collect', '--state', state, '--out', out);
    assert.equal(again.code, EXIT_OK, again.err);
    assert.match(again.err, /4 row\(s\) were already in/);
    assert.equal(fs.readFileSync(out, 'utf8'), before);
    assert.equal(fake.log.filter((l) => l.includes('/content')).length, downloads);
  });

  it('splits into parts of at most N requests without splitting a row, saving the state after each batch', async () => {
    const { tpl, data } = setup(PAIRWISE, Array.from({ length: 7 }, (_, i) => ({ prompt: `q${i}`, response_a: `a${i}`, response_b: `bb${i}` })));
    const prepared = prepareJudge(fs.readFileSync(tpl, 'utf8'));
    assert.ok(prepared.ok);
    await submit(tpl, data, '--rows', '1');
    const s = await readState(state);
    s.submitted = false;
    s.batches = [];
    const api = sdkBatchApi(createSdk({ baseURL: fake.baseURL, timeoutMs: 10_000 }));
    const done = await submitBatches({ api, judge: prepared.judge, state: { ...s, selection: {} }, stateFile: state, dataFile: data, limits: { maxRequests: 5, maxBytes: 1e9 } });
    assert.deepEqual(done.batches.map((b) => [b.rows, b.requests]), [[[1, 2], 4], [[3, 4], 4], [[5, 6], 4], [[7, 7], 2]]);
    const saved = await readState(state);
    assert.ok(saved.submitted && saved.batches.every((b) => b.id && b.fileId));
    assert.equal(fs.existsSync(`${state}.parts/part-1.jsonl`), false, 'uploaded parts are removed');
  });

  it('a submit interrupted after an upload continues from the state: no file is uploaded twice, no row is lost', async () => {
    const { tpl, data } = setup(POINTWISE, Array.from({ length: 5 }, (_, i) => ({ prompt: `q${i}`, response: `r${i}` })));
    const prepared = prepareJudge(fs.readFileSync(tpl, 'utf8'));
    assert.ok(prepared.ok);
    await submit(tpl, data, '--rows', '1');
    const fresh = { ...(await readState(state)), submitted: false, batches: [], selection: {} };
    const real = sdkBatchApi(createSdk({ baseURL: fake.baseURL, timeoutMs: 10_000 }));
    let creates = 0;
    const flaky = { ...real, create: (...a: Parameters<typeof real.create>) => (++creates === 2 ? Promise.reject(new Error('connection reset')) : real.create(...a)) };
    const limits = { maxRequests: 2, maxBytes: 1e9 };
    const opts = { judge: prepared.judge, stateFile: state, dataFile: data, limits };
    await assert.rejects(submitBatches({ ...opts, api: flaky, state: fresh }), /connection reset/);
    const saved = await readState(state);
    assert.deepEqual(saved.batches.map((b) => [b.part, Boolean(b.fileId), Boolean(b.id)]), [[1, true, true], [2, true, false]]);
    const uploads = fake.log.filter((l) => l.startsWith('POST /v1/files')).length;

    const done = await submitBatches({ ...opts, api: real, state: saved });
    assert.deepEqual(done.batches.map((b) => b.rows), [[1, 2], [3, 4], [5, 5]]);
    assert.equal(fake.log.filter((l) => l.startsWith('POST /v1/files')).length, uploads + 1, 'only the last part is uploaded now');
    assert.ok(done.submitted && done.batches.every((b) => b.id));
  });

  it('an expired batch gives failed rows with kind timeout for the requests that never ran, never a score', async () => {
    const { tpl, data } = setup(PAIRWISE, Array.from({ length: 4 }, (_, i) => ({ prompt: `q${i}`, response_a: `a${i}`, response_b: `bbb${i}` })));
    fake.nextFate = { expire: 3 }; // rows 1 (AB, BA) and 2 (AB) ran
    await submit(tpl, data);
    await untilDone();
    const out = path.join(dir, 'b.jsonl');
    const r = await batch('collect', '--state', state, '--out', out);
    assert.equal(r.code, EXIT_FINDINGS);
    const lines = byRow(readJsonl(out));
    assert.equal(lines[0]!['pref/pairwise_choice'], 'B');
    for (const l of lines.slice(1)) {
      assert.equal(l['pref/error_kind'], 'timeout');
      assert.equal(l['pref/pairwise_choice'], null);
      assert.match(String(l['pref/error']), /expired/);
    }
    assert.equal((lines[1]!['pref/passes'] as unknown[]).length, 1, 'the pass that ran is kept');
  });

  it('requests that failed in the batch make failed rows with the HTTP error kind', async () => {
    const { tpl, data } = setup(POINTWISE, [{ prompt: 'ok', response: 'fine' }, { prompt: 'boom', response: 'bad' }]);
    fake.rules = [(r) => (r.prompt.includes('Prompt: boom') ? { status: 500, json: { error: { message: 'upstream fell over', type: 'server_error' } } } : undefined)];
    await submit(tpl, data);
    await untilDone();
    const out = path.join(dir, 'b.jsonl');
    assert.equal((await batch('collect', '--state', state, '--out', out)).code, EXIT_FINDINGS);
    const [ok, failed] = byRow(readJsonl(out));
    assert.ok(Number.isInteger(ok!['quality/score']));
    assert.equal(failed!['quality/error_kind'], 'server');
    assert.equal(failed!['quality/score'], null);
    assert.match(String(failed!['quality/error']), /upstream fell over/);
  });

  describe('invalid replies', () => {
    const isRepair = (prompt: string) => prompt.includes('Your previous reply could not be used');
    const records = [{ prompt: 'fine', response: 'r1' }, { prompt: 'garbled', response: 'r2' }];

    it('wait for a repair batch (submit --repairs), then become a judged row', async () => {
      const { tpl, data } = setup(POINTWISE, records);
      fake.rules = [(r) => (r.prompt.includes('Prompt: garbled') && !isRepair(r.prompt) ? reply('I think it is a four.') : undefined)];
      await submit(tpl, data);
      await untilDone();
      const out = path.join(dir, 'b.jsonl');
      const first = await batch('collect', '--state', state, '--out', out);
      assert.equal(first.code, EXIT_FINDINGS);
      assert.match(first.err, /1 invalid reply needs a repair: batch submit --repairs/);
      assert.deepEqual(readJsonl(out).map((l) => l._row), [1]);

      const repairs = await batch('submit', '--repairs', '--state', state);
      assert.equal(repairs.code, EXIT_OK, repairs.err);
      await untilDone();
      const second = await batch('collect', '--state', state, '--out', out);
      assert.equal(second.code, EXIT_OK, second.err);
      const lines = byRow(readJsonl(out));
      assert.deepEqual(lines.map((l) => l._row), [1, 2]);
      assert.ok(Number.isInteger(lines[1]!['quality/score']));
      // Its custom_id names the position, the submission's nonce and the repair request's own hash.
      const sent = fake.ran.find((r) => /^r2\.s0\.AB\.[0-9a-f]{24}\.[0-9a-f]{16}\.repair$/.test(r.custom_id ?? ''));
      assert.ok(sent, 'the repair went out as its own batch request');
      assert.match(String(sent.body.messages?.at(-1)?.content), /could not be used/);
      assert.equal(sent.body.messages?.at(-2)?.content, 'I think it is a four.');
    });

    it('are repaired at once with --repair-sync, and a reply still invalid fails the row as invalid-reply', async () => {
      const { tpl, data } = setup(POINTWISE, [...records, { prompt: 'hopeless', response: 'r3' }]);
      fake.rules = [
        (r) => (r.prompt.includes('Prompt: garbled') && !isRepair(r.prompt) ? reply('four-ish') : undefined),
        (r) => (r.prompt.includes('Prompt: hopeless') ? reply('no idea') : undefined),
      ];
      await submit(tpl, data);
      await untilDone();
      const out = path.join(dir, 'b.jsonl');
      const r = await batch('collect', '--state', state, '--out', out, '--repair-sync');
      assert.equal(r.code, EXIT_FINDINGS, r.err);
      const lines = byRow(readJsonl(out));
      assert.ok(Number.isInteger(lines[1]!['quality/score']), 'repaired synchronously');
      assert.equal(lines[2]!['quality/error_kind'], 'invalid-reply');
      assert.equal(lines[2]!['quality/score'], null);
      assert.deepEqual(lines[2]!['quality/raw_replies'], ['no idea', 'no idea']);
      assert.equal((await readState(state)).repairs.length, 0);
    });
  });

  it('cancel keeps what finished: collect writes those rows and fails the rest as cancelled', async () => {
    const { tpl, data } = setup(POINTWISE, Array.from({ length: 6 }, (_, i) => ({ prompt: `q${i}`, response: `r${i}` })));
    await submit(tpl, data);
    const c = await batch('cancel', '--state', state);
    assert.equal(c.code, EXIT_OK, c.err);
    assert.match(c.err, /1 batch\(es\) cancelling/);
    await untilDone();
    const out = path.join(dir, 'b.jsonl');
    assert.equal((await batch('collect', '--state', state, '--out', out)).code, EXIT_FINDINGS);
    const lines = byRow(readJsonl(out));
    assert.equal(lines.length, 6);
    assert.equal(lines.filter((l) => Number.isInteger(l['quality/score'])).length, 3);
    assert.deepEqual(lines.slice(3).map((l) => l['quality/error_kind']), ['cancelled', 'cancelled', 'cancelled']);
  });

  it('Azure: the deployment as model, /chat/completions lines and the api-version query', async () => {
    const { tpl, data } = setup(POINTWISE, [{ prompt: 'q', response: 'r' }]);
    env.AZ_KEY = 'secret';
    const base = fake.baseURL.replace(/\/v1$/, '');
    const r = await batch('submit', tpl, '--data', data, '--state', state, '--base-url', base, '--model', 'my-deployment', '--azure-api-version', '2024-10-21', '--api-key-env', 'AZ_KEY', '--allow-insecure-http');
    assert.equal(r.code, EXIT_OK, r.err);
    assert.ok(fake.log.some((l) => /^POST \/openai\/batches\?api-version=2024-10-21$/.test(l)), fake.log.join('\n'));
    const same = ['--base-url', base, '--api-key-env', 'AZ_KEY', '--allow-insecure-http'];
    await untilDone(...same);
    assert.equal((await batch('collect', '--state', state, '--out', path.join(dir, 'b.jsonl'), ...same)).code, EXIT_OK);
    assert.equal(fake.ran[0]!.body.model, 'my-deployment');
  });

  it('refuses to collect when the dataset changed since submit, and to submit twice into one state', async () => {
    const { tpl, data } = setup(POINTWISE, [{ prompt: 'q', response: 'r' }]);
    await submit(tpl, data);
    const twice = await batch('submit', tpl, '--data', data, '--state', state, '--base-url', fake.baseURL, '--model', 'm').catch((e: Error) => e);
    assert.ok(twice instanceof Error && /already holds a submitted job/.test(twice.message));
    fs.appendFileSync(data, '{"prompt": "new", "response": "row"}\n');
    const r = await batch('collect', '--state', state, '--out', path.join(dir, 'b.jsonl'));
    assert.equal(r.code, EXIT_USAGE);
    assert.match(r.err, /changed since the batch was submitted/);
  });
});
