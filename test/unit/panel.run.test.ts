// Panels through `judge-studio run` against several local fake servers (several endpoints): judges
// that disagree, fail or time out, the quorum, samples per judge, and the cache per judge.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS, EXIT_OK } from '../../src/cli/io';
import { UsageError } from '../../src/cli/io';
import { buildRequest, requestKey } from '../../src/core/judge/engine/pass';
import { FakeOpenAI, reply, status } from '../support/fakeOpenAI';
import { captureIO, PAIRWISE, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

type Line = Record<string, unknown>;
interface Entry {
  judge: string;
  verdict: unknown;
  confidence: number | null;
  position_consistent: boolean | null;
  error_kind: string | null;
  flip_rate?: number;
  score_sd?: number;
}


const PASS_FAIL = POINTWISE.replace('scale: [1, 5]', 'scale: [0, 1]').replace(/- 1: Wrong or empty\.\n- 2: Mostly wrong\.\n- 3: Partly right\.\n- 4: Right with a small gap\.\n- 5: Fully right\./, '- 0: Wrong.\n- 1: Right.');

describe('judge-studio run with a panel of judges', function () {
  this.timeout(30_000);
  const fakes: FakeOpenAI[] = [];
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    for (let i = 0; i < 3; i++) fakes.push(await FakeOpenAI.start());
    dir = tempDir();
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_OUTAGE_BASE_MS: '20' };
  });
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  function write(name: string, text: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  }

  /** Pairwise: the judge at fake i picks the response holding `favourite` in its text, mapped to the slot shown. */
  function pairJudge(i: number, favourite: 'good' | 'bad' | 'fail' | 'slow'): void {
    fakes[i]!.rules = [
      (r) => {
        if (favourite === 'fail') return status(500, 'judge down');
        if (favourite === 'slow') return { ...reply({ justification: 'late', winner: 'A', confidence: 0.9 }), delayMs: 2_000 };
        const m = /\[Response A\]\n(.*)\n/.exec(r.prompt);
        const aIsGood = m?.[1]?.includes('good') ?? false;
        const pick = (favourite === 'good') === aIsGood ? 'A' : 'B';
        return reply({ justification: `fake ${i} picks ${pick}`, winner: pick, confidence: 0.6 + i / 10 });
      },
    ];
  }

  async function run(template: string, extra: string[], rows: Line[]) {
    const data = writeJsonl(path.join(dir, 'd.jsonl'), rows);
    const out = path.join(dir, 'r.jsonl');
    const io = captureIO(dir, env);
    const judges = fakes.flatMap((f, i) => ['--judge', `judge${i}@${f.baseURL}`]);
    const code = await runCommand([write('t.judge', template), '--data', data, '--out', out, '--retries', '0', ...judges, ...extra], io);
    return { code, io, lines: fs.existsSync(out) ? readJsonl(out) : [] };
  }

  const PAIR_ROWS = [
    { prompt: 'p1', response_a: 'good one', response_b: 'bad one' },
    { prompt: 'p2', response_a: 'bad two', response_b: 'good two' },
  ];

  it('records every judge and gives the verdict the majority gave, each judge through both swap passes', async () => {
    pairJudge(0, 'good');
    pairJudge(1, 'good');
    pairJudge(2, 'bad');
    const { code, io, lines } = await run(PAIRWISE, [], PAIR_ROWS);
    assert.equal(code, EXIT_OK, io.err);
    assert.match(io.err, /a panel of 3 judge\(s\) \(judge0 at http:\/\/127\.0\.0\.1:\d+\/v1; judge1/);
    for (const f of fakes) assert.equal(f.chats.length, 4, 'each judge: 2 rows × 2 passes');
    const byRow = new Map(lines.map((l) => [l._row, l]));
    assert.equal(byRow.get(1)!['pref/pairwise_choice'], 'A');
    assert.equal(byRow.get(2)!['pref/pairwise_choice'], 'B');
    const judges = byRow.get(1)!['pref/judges'] as Entry[];
    assert.deepEqual(judges.map((j) => [j.judge, j.verdict, j.position_consistent, j.error_kind]), [
      ['judge0', 'A', true, null],
      ['judge1', 'A', true, null],
      ['judge2', 'B', true, null],
    ]);
    assert.equal(byRow.get(1)!['pref/panel_agreement'], 0.666667);
    assert.equal(byRow.get(1)!['pref/confidence'], 0.65, 'mean confidence of the two judges that gave A');
    const passes = byRow.get(1)!['pref/passes'] as { judge: string; order: string }[];
    assert.deepEqual(passes.map((p) => `${p.judge}:${p.order}`), ['judge0:AB', 'judge0:BA', 'judge1:AB', 'judge1:BA', 'judge2:AB', 'judge2:BA']);
    assert.equal(byRow.get(1)!['pref/model'], 'judge0, judge1, judge2');
  });

  it('keeps a failing judge in the panel: its error is recorded and a split becomes TIE, not a smaller panel', async () => {
    pairJudge(0, 'good');
    pairJudge(1, 'bad');
    pairJudge(2, 'fail');
    const { code, io, lines } = await run(PAIRWISE, [], PAIR_ROWS);
    assert.equal(code, EXIT_OK, io.err);
    for (const l of lines) {
      assert.equal(l['pref/pairwise_choice'], 'TIE', 'A 1, B 1, failed 1: no strict majority of three');
      const failed = (l['pref/judges'] as Entry[])[2]!;
      assert.deepEqual([failed.verdict, failed.error_kind], [null, 'server']);
    }
  });

  it('fails the row with error_kind quorum when too few judges answer, a timeout recorded as such', async () => {
    pairJudge(0, 'good');
    pairJudge(1, 'slow');
    pairJudge(2, 'fail');
    const { code, io, lines } = await run(PAIRWISE, ['--timeout', '300'], PAIR_ROWS.slice(0, 1));
    assert.equal(code, EXIT_FINDINGS, io.err);
    const [line] = lines;
    assert.equal(line!['pref/error_kind'], 'quorum');
    assert.equal(line!['pref/pairwise_choice'], null);
    assert.deepEqual((line!['pref/judges'] as Entry[]).map((j) => j.error_kind), [null, 'timeout', 'server']);
    assert.match(String(line!['pref/error']), /1 of 3 judge\(s\) answered, fewer than the quorum of 2/);
  });

  it('takes a judge whose endpoint fails before the others answer as that judge failing, not as an outage of the run', async function () {
    // Without this the run paused as an outage (5 s, then doubling, up to 10 minutes): judge2's
    // error came before anyone was answered, and judge2's own endpoint failed the probe too.
    this.timeout(20_000);
    for (const i of [0, 1]) fakes[i]!.rules = [() => ({ ...reply({ justification: 'slow but fine', winner: 'A', confidence: 0.9 }), delayMs: 300 })];
    pairJudge(2, 'fail');
    const { code, io, lines } = await run(PAIRWISE, [], PAIR_ROWS.slice(0, 1));
    assert.equal(code, EXIT_OK, io.err);
    assert.deepEqual((lines[0]!['pref/judges'] as Entry[]).map((j) => j.error_kind), [null, null, 'server']);
    assert.doesNotMatch(io.err, /keeps failing/, 'no outage was declared');
  });

  it('a lower --min-judges lets one answering judge decide only when it is a majority of the whole panel', async () => {
    pairJudge(0, 'good');
    pairJudge(1, 'fail');
    pairJudge(2, 'fail');
    const { code, io, lines } = await run(PAIRWISE, ['--min-judges', '1'], PAIR_ROWS.slice(0, 1));
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(lines[0]!['pref/pairwise_choice'], 'TIE', 'one vote of three is no majority');
  });

  it('fails a pass/fail row without a strict majority as no-majority', async () => {
    fakes[0]!.rules = [() => reply({ justification: 'pass', score: 1 })];
    fakes[1]!.rules = [() => reply({ justification: 'fail', score: 0 })];
    fakes[2]!.rules = [() => reply('not json at all')];
    const { code, lines } = await run(PASS_FAIL, [], [{ prompt: 'p', response: 'r' }]);
    assert.equal(code, EXIT_FINDINGS);
    assert.equal(lines[0]!['quality/error_kind'], 'no-majority');
    assert.deepEqual((lines[0]!['quality/judges'] as Entry[]).map((j) => j.error_kind), [null, null, 'invalid-reply']);
    assert.equal(fakes[2]!.chats.length, 2, 'the failing judge got its one repair request');
  });

  it('takes the median of pointwise scores with the mean, and per-judge stability with --samples', async () => {
    const scores = [[5, 5, 5], [2, 3, 4], [4, 4, 4]];
    fakes.forEach((f, i) => {
      let n = 0;
      f.rules = [() => reply({ justification: `j${i}`, score: scores[i]![n++ % 3]! })];
    });
    const { code, io, lines } = await run(POINTWISE, ['--samples', '3', '--no-cache'], [{ prompt: 'p', response: 'r' }]);
    assert.equal(code, EXIT_OK, io.err);
    const [line] = lines;
    const judges = line!['quality/judges'] as Entry[];
    assert.deepEqual(judges.map((j) => j.verdict), [5, 3, 4], 'each judge: the majority of its own samples');
    assert.deepEqual(judges.map((j) => j.flip_rate), [0, 0.666667, 0]);
    assert.deepEqual(judges.map((j) => j.score_sd), [0, 0.816497, 0]);
    assert.equal(line!['quality/score'], 4, 'median of 5, 3, 4');
    assert.equal(line!['quality/score_mean'], 4);
    assert.equal(line!['quality/flip_rate'], 0.222222, 'mean of the judges’ own flip rates');
  });

  it('never answers one sample from another sample’s cache entry, nor one judge from another’s', async () => {
    let n = 0;
    for (const f of fakes) f.rules = [() => reply({ justification: 'x', score: 1 + (n++ % 5) })];
    const first = await run(POINTWISE, ['--samples', '3'], [{ prompt: 'p', response: 'r' }]);
    assert.equal(first.code, EXIT_OK, first.io.err);
    for (const f of fakes) assert.equal(f.chats.length, 3, 'three samples, three calls per judge');
    const request = buildRequest([{ role: 'user', content: 'x' }], { model: 'm', structured: 'none', schemaName: 'q' }, {});
    assert.notEqual(requestKey(request, 0, 's'), requestKey(request, 1, 's'));
    fs.rmSync(path.join(dir, 'r.jsonl'));
    const again = await run(POINTWISE, ['--samples', '3'], [{ prompt: 'p', response: 'r' }]);
    assert.equal(again.code, EXIT_OK);
    for (const f of fakes) assert.equal(f.chats.length, 3, 'the second run is answered from the cache');
    assert.deepEqual(again.lines[0]!['quality/judges'], first.lines[0]!['quality/judges'], 'each sample its own entry back');
  });

  it('gives a repeated model at the same endpoint its own cache entries', async () => {
    let n = 0;
    fakes[0]!.rules = [() => reply({ justification: 'x', score: 1 + (n++ % 5) })];
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'p', response: 'r' }]);
    const out = path.join(dir, 'r.jsonl');
    const io = captureIO(dir, env);
    const u = fakes[0]!.baseURL;
    const code = await runCommand([write('t.judge', POINTWISE), '--data', data, '--out', out, '--judge', `m@${u}`, '--judge', `m@${u}`], io);
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(fakes[0]!.chats.length, 2);
    assert.deepEqual((readJsonl(out)[0]!['quality/judges'] as Entry[]).map((j) => j.judge), ['m@127.0.0.1:' + fakes[0]!.port + '#1', 'm@127.0.0.1:' + fakes[0]!.port + '#2']);
  });

  it('reads the panel from the template, endpoints by URL or by --endpoint name', async () => {
    const template = POINTWISE.replace('inputs: [prompt, response]', `inputs: [prompt, response]\nmodel:\n  judges:\n    - model: a\n      endpoint: ${fakes[0]!.baseURL}\n    - model: b\n      endpoint: second\n  min_judges: 2`);
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'p', response: 'r' }]);
    const io = captureIO(dir, env);
    const code = await runCommand([write('t.judge', template), '--data', data, '--out', path.join(dir, 'r.jsonl'), '--endpoint', `second=${fakes[1]!.baseURL}`], io);
    assert.equal(code, EXIT_OK, io.err);
    assert.equal(fakes[0]!.chats[0]!.body?.model, 'a');
    assert.equal(fakes[1]!.chats[0]!.body?.model, 'b');
    await assert.rejects(
      runCommand([write('t.judge', template), '--data', data, '--out', path.join(dir, 'r2.jsonl')], captureIO(dir, env)),
      (e: unknown) => e instanceof UsageError && /no endpoint named "second"/.test(e.message),
    );
  });

  it('refuses to send a key over plain http to a panel endpoint that is not this machine', async () => {
    const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'p', response: 'r' }]);
    const io = captureIO(dir, { ...env, OPENAI_API_KEY: 'sk-test' });
    await assert.rejects(
      runCommand([write('t.judge', POINTWISE), '--data', data, '--judge', `a@${fakes[0]!.baseURL}`, '--endpoint', 'b=http://judge.example.com/v1', '--endpoint-key', 'b=OPENAI_API_KEY', '--judge', 'b@b'], io),
      (e: unknown) => e instanceof UsageError && /refusing to send an API key over plain http to judge\.example\.com/.test(e.message),
    );
    assert.equal(fakes[0]!.chats.length, 0);
  });
});
