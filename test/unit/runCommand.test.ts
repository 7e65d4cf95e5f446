import { keyFields, rowKey, templateHash } from '../../src/core/results/keys';
import { parseTemplate } from '../../src/core/template/parse';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { main } from '../../src/cli/main';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../../src/cli/io';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, ratedResponse, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import type { CapturedIO } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

describe('judge-studio run', () => {
  let fake: FakeOpenAI;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') };
  });
  afterEach(() => fake.close());

  async function run(args: string[], io: CapturedIO = captureIO(dir, env)): Promise<{ code: number; io: CapturedIO }> {
    const code = await runCommand(args, io);
    return { code, io };
  }

  const base = () => ['--base-url', fake.baseURL, '--model', 'm'];

  it('writes one validated line per row for the pointwise example, with calibrate-ready columns', async () => {
    const out = path.join(dir, 'r.jsonl');
    const { code, io } = await run([path.join(EXAMPLES, 'helpfulness.judge'), '--data', path.join(EXAMPLES, 'helpfulness.jsonl'), ...base(), '--out', out]);
    assert.equal(code, EXIT_OK, io.err);
    const input = readJsonl(path.join(EXAMPLES, 'helpfulness.jsonl'));
    const lines = readJsonl(out);
    assert.equal(lines.length, input.length);
    assert.deepEqual(lines.map((l) => l._row).sort((a, b) => Number(a) - Number(b)), input.map((_, i) => i + 1));
    for (const line of lines) {
      const score = line['helpfulness/score'];
      assert.ok(Number.isInteger(score) && (score as number) >= 1 && (score as number) <= 5, `score ${String(score)}`);
      assert.equal(typeof line['helpfulness/justification'], 'string');
      assert.ok('helpfulness/human_rating' in line, 'the human label travels with the row');
      assert.equal(line['helpfulness/model'], 'm');
    }
    assert.equal(fake.chats[0]!.body?.response_format?.type, 'json_schema');
    assert.equal(fake.chats[0]!.body?.max_tokens, 400);
    assert.match(io.err, new RegExp(`${input.length} row\\(s\\) judged \\(${input.length} ok, 0 failed\\)`));
  });

  it('writes both passes per row for the pairwise example', async () => {
    const out = path.join(dir, 'p.jsonl');
    const { code } = await run([path.join(EXAMPLES, 'fluency_pairwise.judge'), '--data', path.join(EXAMPLES, 'fluency_pairwise.jsonl'), ...base(), '--out', out]);
    assert.equal(code, EXIT_OK);
    const lines = readJsonl(out);
    assert.equal(lines.length, readJsonl(path.join(EXAMPLES, 'fluency_pairwise.jsonl')).length);
    assert.equal(fake.chats.length, 2 * lines.length);
    for (const line of lines) {
      const passes = line['pairwise_fluency/passes'] as { order: string }[];
      assert.deepEqual(passes.map((p) => p.order), ['AB', 'BA']);
      assert.ok(['A', 'B', 'TIE'].includes(line['pairwise_fluency/pairwise_choice'] as string));
      assert.equal(typeof line['pairwise_fluency/position_consistent'], 'boolean');
      assert.ok('pairwise_fluency/human_pairwise_choice' in line);
    }
  });

  it('prints template errors as file:line:col diagnostics, exits 2 and calls no judge', async () => {
    const template = path.join(dir, 'bad.judge');
    fs.writeFileSync(template, POINTWISE.replace('scale: [1, 5]', 'scale: [5, 1]').replace('{{response}}', ''));
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'q', response: 'r' }]);
    const { code, io } = await run(['bad.judge', '--data', data, ...base()]);
    assert.equal(code, EXIT_USAGE);
    assert.match(io.err, /^bad\.judge:\d+:\d+ error [a-z-]+ .+$/m);
    assert.equal(fake.requests.length, 0);
  });

  it('rejects bad usage with a UsageError', async () => {
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'q', response: 'r' }]);
    const template = path.join(EXAMPLES, 'helpfulness.judge');
    const cases: [string[], RegExp][] = [
      [[template], /--data/],
      [[template, '--data', data, '--concurrency', '0'], /--concurrency needs an integer/],
      [[template, '--data', data, '--rows', '5-2'], /A must not exceed B/],
      [[template, '--data', data, '--structured', 'xml'], /--structured takes/],
      [[template, '--data', data, '--header', 'nocolon'], /--header takes Name:value/],
      [[template, '--data', path.join(dir, 'missing.jsonl'), ...base()], /cannot read the dataset/],
      [[template, '--data', data, '--model', 'm', '--base-url', 'localhost:11434'], /must be http or https/],
      [[template, '--data', data, '--model', 'm', '--base-url', 'http//x'], /is not a URL/],
      [[template, '--data', data, ...base(), '--api-key-env', 'UNSET_KEY_VAR'], /UNSET_KEY_VAR: the variable is not set/],
    ];
    for (const [args, pattern] of cases) {
      await assert.rejects(run(args), (e: unknown) => e instanceof UsageError && pattern.test(e.message), args.join(' '));
    }
    await assert.rejects(run([template, '--data', data, '--bogus']), /bogus/);
    assert.equal(fake.requests.length, 0);
  });

  it('says when it sends no API key and sends the key from the named variable otherwise', async () => {
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'q', response: 'r' }]);
    const t = path.join(EXAMPLES, 'helpfulness.judge');
    const { io } = await run([t, '--data', data, ...base(), '--no-cache', '--out', 'a.jsonl']);
    assert.match(io.err, /no API key \(\$OPENAI_API_KEY is not set\)/);
    assert.equal(fake.chats[0]!.headers.authorization, undefined);
    await run([t, '--data', data, ...base(), '--no-cache', '--out', 'b.jsonl', '--api-key-env', 'JUDGE_KEY', '--header', 'X-Run: 7'], captureIO(dir, { ...env, JUDGE_KEY: 'sk-abc' }));
    assert.equal(fake.chats[1]!.headers.authorization, 'Bearer sk-abc');
    assert.equal(fake.chats[1]!.headers['x-run'], '7');
  });

  it('counts requests and estimates tokens in a dry run without calling the judge', async () => {
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [
      { prompt: 'q', response: 'r' },
      { prompt: 'q2', response: 'r2' },
      { prompt: 'q3' },
    ]);
    const { code, io } = await run([path.join(EXAMPLES, 'helpfulness.judge'), '--data', data, ...base(), '--dry-run', '--samples', '2', '--json']);
    assert.equal(code, EXIT_FINDINGS, 'a row that cannot be rendered is a finding');
    assert.equal(fake.requests.length, 0);
    const report = JSON.parse(io.out) as { requests: number; rows: number; estimated: { prompt_tokens: number; completion_tokens: number }; render_errors: number };
    assert.deepEqual([report.rows, report.requests, report.render_errors], [3, 4, 1]);
    assert.ok(report.estimated.prompt_tokens > 4 * 100, 'the rendered prompt is several hundred tokens');
    assert.equal(report.estimated.completion_tokens, 4 * 400);
    assert.match(io.err, /field `response` is missing/);
    assert.ok(!fs.existsSync(path.join(dir, 'helpfulness.results.jsonl')), 'a dry run writes no results');
  });

  it('prints a JSON summary with summed usage and exits 1 when some rows failed', async () => {
    fake.rules = [
      (r) =>
        ratedResponse(r.prompt) === 'bad'
          ? reply('no idea', { usage: null })
          : reply({ justification: 'j', score: 3 }, { usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }),
    ];
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [
      { prompt: 'q', response: 'good' },
      { prompt: 'q', response: 'bad' },
      { prompt: 'q', response: 'fine' },
    ]);
    const template = path.join(dir, 'q.judge');
    fs.writeFileSync(template, POINTWISE);
    const { code, io } = await run([template, '--data', data, ...base(), '--json', '--price', '1,2']);
    assert.equal(code, EXIT_FINDINGS);
    const summary = JSON.parse(io.out) as {
      rows: { judged: number; ok: number; failed: number };
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; replies_without_usage: number };
      requests: { sent: number; repairs: number };
      cost_usd: number;
    };
    assert.deepEqual([summary.rows.judged, summary.rows.ok, summary.rows.failed], [3, 2, 1]);
    assert.deepEqual(summary.usage, { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220, replies_without_usage: 2 });
    assert.deepEqual([summary.requests.sent, summary.requests.repairs], [4, 1]);
    assert.equal(summary.cost_usd, 0.00024);
    assert.match(io.err, /tokens: 200 prompt \+ 20 completion = 220 \(2 replies carried no usage\)/);
    const failed = readJsonl(path.join(dir, 'quality.results.jsonl')).find((l) => l.response === 'bad')!;
    assert.match(String(failed['quality/error']), /invalid reply/);
  });

  it('answers a re-run from the cache with no HTTP call, and --no-cache asks again', async () => {
    const args = [path.join(EXAMPLES, 'helpfulness.judge'), '--data', path.join(EXAMPLES, 'helpfulness.jsonl'), ...base()];
    await run(args);
    const calls = fake.chats.length;
    const second = await run([...args, '--overwrite', '--json']);
    assert.equal(fake.chats.length, calls, 'no request on the re-run');
    assert.equal((JSON.parse(second.io.out) as { requests: { cache_hits: number } }).requests.cache_hits, calls);
    await run([...args, '--overwrite', '--no-cache']);
    assert.equal(fake.chats.length, 2 * calls);
  });

  it('refuses to replace an existing results file unless told to', async () => {
    const out = path.join(dir, 'kept.jsonl');
    fs.writeFileSync(out, `${JSON.stringify({ _row: 1, 'helpfulness/score': 4 })}\n`);
    await assert.rejects(
      run([path.join(EXAMPLES, 'helpfulness.judge'), '--data', path.join(EXAMPLES, 'helpfulness.jsonl'), ...base(), '--out', out]),
      (e: unknown) => e instanceof UsageError && /already holds results; pass --resume .* --overwrite/.test(e.message),
    );
    assert.equal(fs.readFileSync(out, 'utf8'), `${JSON.stringify({ _row: 1, 'helpfulness/score': 4 })}\n`, 'the file is untouched');
    assert.equal(fake.chats.length, 0);
  });

  it('finishes a results file with --resume without duplicating rows', async () => {
    const records = Array.from({ length: 5 }, (_, i) => ({ prompt: 'q', response: `r${i + 1}` }));
    const data = writeJsonl(path.join(dir, 'd.jsonl'), records);
    const out = path.join(dir, 'r.jsonl');
    const hash = templateHash(fs.readFileSync(path.join(EXAMPLES, 'helpfulness.judge'), 'utf8'));
    const key = rowKey(records[1]!, keyFields(parseTemplate(fs.readFileSync(path.join(EXAMPLES, 'helpfulness.judge'), 'utf8'))));
    fs.writeFileSync(out, `${JSON.stringify({ ...records[1], _row: 2, _key: key, 'helpfulness/score': 5, 'helpfulness/template_hash': hash })}\n{"_row": 4, "helpf`);
    const { code, io } = await run([path.join(EXAMPLES, 'helpfulness.judge'), '--data', data, ...base(), '--out', out, '--resume', '--no-cache']);
    assert.equal(code, EXIT_OK, io.err);
    assert.match(io.err, /cut off mid-write/);
    const lines = readJsonl(out);
    assert.deepEqual(lines.map((l) => l._row).sort(), [1, 2, 3, 4, 5]);
    assert.equal(fake.chats.length, 4);
    assert.equal(lines[0]!['helpfulness/score'], 5, 'the kept row is untouched');
  });

  it('judges only --rows, reports unreadable dataset lines with their count and exits 1 unless --allow-skipped', async () => {
    const data = path.join(dir, 'd.jsonl');
    fs.writeFileSync(data, ['{"prompt":"q","response":"r1"}', '{oops', '{"prompt":"q","response":"r3"}', '{"prompt":"q","response":"r4"}'].join('\n'));
    const { code, io } = await run([path.join(EXAMPLES, 'helpfulness.judge'), '--data', data, ...base(), '--rows', '1-3', '--out', 'r.jsonl']);
    assert.equal(code, EXIT_FINDINGS, 'a record that could not be read is not a finished run');
    assert.deepEqual(readJsonl(path.join(dir, 'r.jsonl')).map((l) => l._row).sort(), [1, 3]);
    assert.match(io.err, /d\.jsonl: line 2/);
    assert.match(io.err, /1 unreadable dataset record\(s\) skipped/);
    assert.match(io.err, /1 record\(s\) of .*d\.jsonl could not be read and were not judged: line 2: /);
    assert.match(io.err, /--allow-skipped/);

    const allowed = await run([path.join(EXAMPLES, 'helpfulness.judge'), '--data', data, ...base(), '--rows', '1-3', '--out', 'r2.jsonl', '--allow-skipped']);
    assert.equal(allowed.code, EXIT_OK, allowed.io.err);
  });

  it('prints its usage with the cache location on --help', async () => {
    const io = captureIO(dir, env);
    assert.equal(await main(['run', '--help'], io), EXIT_OK);
    assert.match(io.out, /XDG_CACHE_HOME\/judge-studio/);
  });
});
