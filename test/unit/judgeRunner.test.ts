import { rowKey } from '../../src/core/results/keys';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiskCache, MemoryCache } from '../../src/core/judge/engine/cache';
import type { JudgeCache } from '../../src/core/judge/engine/cache';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import type { PreparedJudge } from '../../src/core/judge/engine/prepare';
import { runJudge } from '../../src/core/judge/run/runner';
import type { RunnerOptions } from '../../src/core/judge/run/runner';
import { FakeOpenAI, fenced, prose, reply, status } from '../support/fakeOpenAI';
import type { FakeAction, RecordedRequest } from '../support/fakeOpenAI';
import { items, PAIRWISE, POINTWISE, ratedResponse, slots, tempDir } from '../support/judgeFixtures';

function prepared(text: string): PreparedJudge {
  const p = prepareJudge(text);
  assert.ok(p.ok, 'fixture template is valid');
  return p.judge;
}

const isRepair = (r: RecordedRequest) => (r.body?.messages ?? []).some((m) => m.role === 'assistant');

describe('judge engine', () => {
  let fake: FakeOpenAI;
  let lines: Record<string, unknown>[];
  let logs: string[];

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    lines = [];
    logs = [];
  });
  afterEach(() => fake.close());

  function run(judge: PreparedJudge, records: Record<string, unknown>[], extra: Partial<RunnerOptions> = {}) {
    const client = new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 1_000 });
    return runJudge({
      judge,
      client,
      settings: { model: 'm', structured: 'json_schema', schemaName: judge.metric },
      items: items(records),
      write: (line) => lines.push(line),
      retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
      log: (m) => logs.push(m),
      ...extra,
    });
  }

  const byRow = () => new Map(lines.map((l) => [l._row as number, l]));

  it('writes one validated line per row with the input fields, _row and the metric columns', async () => {
    fake.rules = [() => reply({ justification: 'fine', score: 4 }, { model: 'm-2025' })];
    const { stats } = await run(prepared(POINTWISE), [
      { id: 'a', prompt: 'p1', response: 'r1' },
      { id: 'b', prompt: 'p2', response: 'r2' },
    ]);
    assert.equal(lines.length, 2);
    const judge = prepared(POINTWISE);
    assert.deepEqual(byRow().get(1), {
      id: 'a',
      prompt: 'p1',
      response: 'r1',
      _row: 1,
      _key: rowKey({ prompt: 'p1', response: 'r1' }, ['prompt', 'response']),
      'quality/score': 4,
      'quality/justification': 'fine',
      'quality/confidence': null,
      'quality/model': 'm-2025',
      'quality/template_hash': judge.templateHash,
    });
    assert.match(judge.templateHash, /^[0-9a-f]{12}$/);
    assert.deepEqual([stats.ok, stats.failed, stats.calls], [2, 0, 2]);
    assert.equal(stats.usage.totalTokens > 0, true);
  });

  it('ends every failure mode as designed: retried, repaired or a recorded row error, one line per row', async () => {
    const seen = new Map<string, number>();
    const good = { justification: 'ok', score: 3 };
    const behaviours: Record<string, (n: number, r: RecordedRequest) => FakeAction> = {
      bare: () => reply(good),
      fenced: () => fenced(good),
      prose: () => prose(good),
      think: () => reply(`<think>maybe {"score": 1}</think>\n${JSON.stringify(good)}`),
      'invalid-once': (n) => (n === 1 ? reply('{"justification": "ok", "score": 3') : reply(good)),
      'invalid-always': () => reply('I cannot decide.'),
      'out-of-scale-once': (n) => (n === 1 ? reply({ justification: 'ok', score: 9 }) : reply(good)),
      'out-of-scale-always': () => reply({ justification: 'ok', score: 9 }),
      'string-score': () => reply({ justification: 'ok', score: '3' }),
      '429-once': (n) => (n === 1 ? status(429, 'slow down', { 'retry-after-ms': '30' }) : reply(good)),
      '500-once': (n) => (n === 1 ? status(500) : reply(good)),
      '500-always': () => status(503, 'overloaded'),
      'slow-once': (n) => (n === 1 ? { ...reply(good), delayMs: 4_000 } : reply(good)),
      'slow-always': () => ({ ...reply(good), delayMs: 4_000 }),
      'drop-once': (n) => (n === 1 ? { drop: true } : reply(good)),
      'bad-request': () => status(400, 'context length exceeded'),
    };
    fake.rules = [
      (r) => {
        const kind = ratedResponse(r.prompt);
        const n = (seen.get(kind) ?? 0) + 1;
        seen.set(kind, n);
        return behaviours[kind]!(n, r);
      },
    ];
    const kinds = Object.keys(behaviours);
    const { stats } = await run(prepared(POINTWISE), kinds.map((k) => ({ prompt: 'q', response: k })));

    assert.equal(lines.length, kinds.length, 'exactly one line per input row');
    assert.deepEqual([...byRow().keys()].sort((a, b) => a - b), kinds.map((_, i) => i + 1));
    const outcome = new Map(lines.map((l) => [l.response as string, l]));
    const ok = ['bare', 'fenced', 'prose', 'think', 'invalid-once', 'out-of-scale-once', '429-once', '500-once', 'slow-once', 'drop-once'];
    for (const k of ok) {
      assert.equal(outcome.get(k)?.['quality/score'], 3, `${k} ends with the score`);
      assert.equal(outcome.get(k)?.['quality/error'], undefined, `${k} has no error`);
    }
    const errors: Record<string, RegExp> = {
      'invalid-always': /no JSON object.*after one repair/,
      'out-of-scale-always': /score: .*5/,
      'string-score': /score: .*number/,
      '500-always': /server error \(503\).*gave up after 3 attempts/,
      'slow-always': /no complete reply within 1000 ms.*gave up after 3 attempts/,
      'bad-request': /request rejected \(400\): context length exceeded/,
    };
    for (const [k, pattern] of Object.entries(errors)) {
      const line = outcome.get(k)!;
      assert.match(String(line['quality/error']), pattern, k);
      assert.equal(line['quality/score'], null, `${k} gets no score`);
    }
    assert.deepEqual(outcome.get('invalid-always')!['quality/raw_replies'], ['I cannot decide.', 'I cannot decide.']);
    // Repairs are asked once per invalid reply; a 400 is not retried.
    assert.deepEqual([seen.get('invalid-always'), seen.get('bad-request'), seen.get('500-always')], [2, 1, 3]);
    assert.deepEqual([stats.ok, stats.failed], [ok.length, Object.keys(errors).length]);
    assert.equal(stats.repairs, 5);
  });

  it('asks for a repair once, quoting the validation error and the expected shape after the bad reply', async () => {
    fake.rules = [(r) => (isRepair(r) ? reply({ justification: 'ok', score: 5 }) : reply({ justification: 'ok', score: 7 }))];
    await run(prepared(POINTWISE), [{ prompt: 'q', response: 'r' }]);
    const repair = fake.chats[1]!.body!.messages!;
    assert.equal(repair.at(-2)?.role, 'assistant');
    assert.equal(repair.at(-2)?.content, '{"justification":"ok","score":7}');
    assert.match(repair.at(-1)!.content, /could not be used: score: .*5/);
    assert.match(repair.at(-1)!.content, /"score": An integer from 1 to 5/);
    assert.equal(lines[0]!['quality/score'], 5);
  });

  it('honours retry-after on a 429 before retrying', async () => {
    const arrivals: number[] = [];
    fake.rules = [
      (r) => {
        arrivals.push(Date.now());
        return r.index === 0 ? status(429, 'wait', { 'retry-after': '1' }) : reply({ justification: 'j', score: 2 });
      },
    ];
    await run(prepared(POINTWISE), [{ prompt: 'q', response: 'r' }]);
    const waited = arrivals[1]! - arrivals[0]!;
    assert.ok(waited >= 1_000, `waited ${waited} ms`);
    assert.equal(lines[0]!['quality/score'], 2);
  });

  it('records a row that cannot be rendered as an error without calling the judge', async () => {
    await run(prepared(POINTWISE), [{ prompt: 'q' }]);
    assert.equal(fake.chats.length, 0);
    assert.match(String(lines[0]!['quality/error']), /Row 1: field `response` is missing/);
  });

  it('reports unreadable dataset records on the log and writes no line for them', async () => {
    const { stats } = await run(prepared(POINTWISE), [], {
      items: (async function* () {
        yield { row: 1, line: 1, record: { prompt: 'q', response: 'r' } };
        yield { row: 2, line: 2, reason: 'invalid-json' as const, error: 'line 2: invalid JSON; the row is skipped' };
      })(),
    });
    assert.equal(lines.length, 1);
    assert.equal(stats.skippedLines, 1);
    assert.deepEqual(logs, ['line 2: invalid JSON; the row is skipped']);
  });

  it('judges only the selected rows and skips rows already done', async () => {
    const records = Array.from({ length: 6 }, (_, i) => ({ prompt: 'q', response: `r${i + 1}` }));
    const { stats } = await run(prepared(POINTWISE), records, {
      rows: { from: 2, to: 5 },
      resume: { decide: (row) => (row === 3 ? { action: 'keep' } : { action: 'judge', setAside: false }), read: () => Promise.reject(new Error('not moved')) },
    });
    assert.deepEqual(lines.map((l) => l._row).sort(), [2, 4, 5]);
    assert.equal(stats.alreadyDone, 1);
  });

  describe('pairwise with position swap', () => {
    const records = [{ prompt: 'q', response_a: 'plain answer', response_b: 'good answer' }];

    it('keeps the winner of two consistent passes with the mean confidence and both passes', async () => {
      // A fair judge: prefers whichever slot holds the "good" response.
      fake.rules = [
        (r) => {
          const { a } = slots(r.prompt);
          const winner = a.includes('good') ? 'A' : 'B';
          return reply({ justification: `slot ${winner} is good`, winner, confidence: r.prompt.includes('[Response A]\ngood') ? 0.6 : 0.8 });
        },
      ];
      await run(prepared(PAIRWISE), records);
      assert.equal(fake.chats.length, 2);
      const line = lines[0]!;
      assert.equal(line['pref/pairwise_choice'], 'B');
      assert.equal(line['pref/confidence'], 0.7);
      assert.equal(line['pref/position_consistent'], true);
      assert.deepEqual(line['pref/passes'], [
        { order: 'AB', winner: 'B', confidence: 0.8, justification: 'slot B is good' },
        { order: 'BA', winner: 'B', confidence: 0.6, justification: 'slot A is good' },
      ]);
    });

    it('turns a position-biased judge into TIE with confidence 0.5', async () => {
      fake.rules = [() => reply({ justification: 'first is best', winner: 'A', confidence: 0.9 })];
      await run(prepared(PAIRWISE), records);
      const line = lines[0]!;
      assert.deepEqual([line['pref/pairwise_choice'], line['pref/confidence'], line['pref/position_consistent']], ['TIE', 0.5, false]);
      assert.deepEqual((line['pref/passes'] as { winner: string }[]).map((p) => p.winner), ['A', 'B']);
    });

    it('counts a TIE in one pass as inconsistent and TIE in both as consistent', async () => {
      fake.rules = [(r) => reply({ justification: 'j', winner: slots(r.prompt).a.includes('good') ? 'TIE' : 'B', confidence: 0.4 })];
      await run(prepared(PAIRWISE), records);
      assert.deepEqual([lines[0]!['pref/pairwise_choice'], lines[0]!['pref/position_consistent']], ['TIE', false]);
      lines = [];
      fake.rules = [() => reply({ justification: 'j', winner: 'TIE', confidence: 0.4 })];
      await run(prepared(PAIRWISE), records);
      assert.deepEqual([lines[0]!['pref/pairwise_choice'], lines[0]!['pref/confidence'], lines[0]!['pref/position_consistent']], ['TIE', 0.4, true]);
    });

    it('records the row as failed when one pass fails, keeping the pass that finished', async () => {
      fake.rules = [(r) => (slots(r.prompt).a.includes('good') ? reply('nope') : reply({ justification: 'j', winner: 'B', confidence: 1 }))];
      await run(prepared(PAIRWISE), records);
      const line = lines[0]!;
      assert.match(String(line['pref/error']), /^BA pass: invalid reply/);
      assert.equal(line['pref/pairwise_choice'], null);
      assert.deepEqual(line['pref/passes'], [{ order: 'AB', winner: 'B', confidence: 1, justification: 'j' }]);
    });
  });

  it('repeats each judgment --samples times and reports the majority and the agreement', async () => {
    let n = 0;
    fake.rules = [() => reply({ justification: 'j', score: [4, 2, 4][n++ % 3] })];
    await run(prepared(POINTWISE), [{ prompt: 'q', response: 'r' }], { samples: 3, concurrency: 1 });
    assert.equal(fake.chats.length, 3);
    const line = lines[0]!;
    assert.deepEqual([line['quality/score'], line['quality/confidence'], line['quality/score_mean']], [4, 0.666667, 3.333333]);
  });

  it("sends a strategy's follow-up once and keeps the replaced reply as superseded", async () => {
    const base = prepared(POINTWISE);
    const merged: unknown[] = [];
    const judge: PreparedJudge = {
      ...base,
      strategy: {
        ...base.strategy,
        followUp: (reply) => (reply.score === 1 ? 'A score of 1 needs a quoted error; check again.' : null),
        merge: (passes) => (merged.push(passes), base.strategy.merge(passes)),
      },
    };
    fake.rules = [(r) => reply({ justification: 'j', score: r.prompt.includes('check again') ? 2 : 1 })];
    const cache = new MemoryCache();
    await run(judge, [{ prompt: 'q', response: 'r' }], { cache });
    assert.equal(fake.chats.length, 2);
    assert.match(fake.chats[1]!.body!.messages!.at(-1)!.content, /needs a quoted error/);
    assert.equal(lines[0]!['quality/score'], 2);
    assert.deepEqual(merged[0], [{ order: 'AB', reply: { justification: 'j', score: 2 }, superseded: { justification: 'j', score: 1 } }]);
    await run(judge, [{ prompt: 'q', response: 'r' }], { cache });
    assert.equal(fake.chats.length, 2, 'the cached answer includes the follow-up');
    assert.deepEqual(merged[1], merged[0]);
  });

  describe('cache', () => {
    async function twice(cache: JudgeCache, judge = prepared(POINTWISE)) {
      const records = [
        { prompt: 'q', response: 'r1' },
        { prompt: 'q', response: 'r2' },
      ];
      await run(judge, records, { cache });
      const first = lines;
      const callsBefore = fake.chats.length;
      lines = [];
      await run(judge, records, { cache });
      return { first, second: lines, callsBefore, callsAfter: fake.chats.length };
    }

    it('answers a re-run from the disk cache without any HTTP call', async () => {
      const dir = tempDir();
      const r = await twice(new DiskCache(path.join(dir, 'cache')));
      assert.equal(r.callsBefore, 2);
      assert.equal(r.callsAfter, 2, 'no request on the second run');
      const sortRows = (ls: Record<string, unknown>[]) => [...ls].sort((a, b) => (a._row as number) - (b._row as number));
      assert.deepEqual(sortRows(r.second), sortRows(r.first));
      assert.equal(fs.readdirSync(path.join(dir, 'cache', 'v1')).length > 0, true);
    });

    it('never caches a failed judgment', async () => {
      fake.rules = [() => reply('not json')];
      const r = await twice(new MemoryCache());
      assert.equal(r.callsAfter, 2 * r.callsBefore);
    });

    it('keys on the request: another model is not a hit', async () => {
      const cache = new MemoryCache();
      await run(prepared(POINTWISE), [{ prompt: 'q', response: 'r' }], { cache });
      await run(prepared(POINTWISE), [{ prompt: 'q', response: 'r' }], { cache, settings: { model: 'other', structured: 'json_schema', schemaName: 'quality' } });
      assert.equal(fake.chats.length, 2);
    });
  });

  it('keeps at most --concurrency requests in flight', async () => {
    let active = 0;
    let peak = 0;
    fake.rules = [
      () => {
        active++;
        peak = Math.max(peak, active);
        setTimeout(() => active--, 40);
        return { ...reply({ justification: 'j', score: 1 }), delayMs: 40 };
      },
    ];
    await run(prepared(POINTWISE), Array.from({ length: 12 }, () => ({ prompt: 'q', response: 'r' })), { concurrency: 3 });
    assert.equal(lines.length, 12);
    assert.ok(peak <= 3 && peak >= 2, `peak ${peak}`);
  });

  it('slows down when 429s repeat and still finishes every row', async () => {
    let active = 0;
    let peakAfterStorm = 0;
    fake.rules = [
      (r) => {
        if (r.index < 8) return status(429, 'too many requests', { 'retry-after-ms': '50' });
        active++;
        peakAfterStorm = Math.max(peakAfterStorm, active);
        setTimeout(() => active--, 30);
        return { ...reply({ justification: 'j', score: 2 }), delayMs: 30 };
      },
    ];
    const { stats } = await run(prepared(POINTWISE), Array.from({ length: 16 }, () => ({ prompt: 'q', response: 'r' })), {
      concurrency: 8,
      retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 20 },
    });
    assert.equal(lines.length, 16);
    assert.equal(stats.failed, 0);
    assert.equal(stats.rateLimited, 8);
    assert.ok(peakAfterStorm < 8, `in flight after the 429s: ${peakAfterStorm}`);
  });

  it('stops cleanly when aborted: finished rows are written, unfinished ones are not', async () => {
    const controller = new AbortController();
    fake.rules = [(r) => ({ ...reply({ justification: 'j', score: 1 }), delayMs: r.index < 2 ? 0 : 5_000 })];
    const pending = run(prepared(POINTWISE), Array.from({ length: 10 }, () => ({ prompt: 'q', response: 'r' })), {
      concurrency: 2,
      signal: controller.signal,
    });
    const deadline = Date.now() + 3_000;
    while (fake.chats.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const { interrupted, stats } = await pending;
    assert.equal(interrupted, true);
    assert.equal(lines.length, 2);
    assert.equal(stats.done, 2);
    assert.ok(lines.every((l) => l['quality/score'] === 1));
  });
});
