// Text verdicts through the real engine against the local fake server: no structured output is
// requested, a missing verdict gets one repair request in the declared format and then fails the
// row, and a free-form pairwise template runs the position swap.
import * as assert from 'node:assert/strict';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import type { PreparedJudge } from '../../src/core/judge/engine/prepare';
import { runJudge } from '../../src/core/judge/run/runner';
import { FakeOpenAI } from '../support/fakeOpenAI';
import type { RecordedRequest } from '../support/fakeOpenAI';
import { items } from '../support/judgeFixtures';

const SINGLE = `---
name: mt_single
kind: pointwise
scale: [1, 10]
freeform: true
verdict: tagged
system: You are a fair judge.
inputs: [question, answer]
---
[Question]
{{question}}
[Answer]
{{answer}}
Explain, then end with "Rating: [[N]]" for N from 1 to 10.
`;

const PAIR = `---
name: mt_pair
kind: pairwise
freeform: true
verdict: tagged
inputs: [question, answer_a, answer_b]
pair: {a: [answer_a], b: [answer_b]}
---
[Question]
{{question}}
[Assistant A]
{{answer_a}}
[Assistant B]
{{answer_b}}
End with "[[A]]", "[[B]]" or "[[C]]" for a tie.
`;

function prepared(text: string): PreparedJudge {
  const p = prepareJudge(text);
  assert.ok(p.ok, p.ok ? '' : JSON.stringify(p.diagnostics));
  return p.judge;
}

const userText = (r: RecordedRequest) => r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
const isRepair = (r: RecordedRequest) => (r.body?.messages ?? []).some((m) => m.role === 'assistant');

describe('text verdicts through the engine', () => {
  let fake: FakeOpenAI;
  let lines: Record<string, unknown>[];

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    lines = [];
  });
  afterEach(() => fake.close());

  function run(judge: PreparedJudge, records: Record<string, unknown>[]) {
    const client = new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 2000 });
    return runJudge({
      judge,
      client,
      settings: { model: 'm', structured: 'json_schema', schemaName: judge.metric },
      items: items(records),
      write: (line) => lines.push(line),
      retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
    });
  }
  const row = (n: number) => lines.find((l) => l._row === n)!;

  it('reads [[N]] from prose with several brackets, asks for no structured output and sends the prompt as written', async () => {
    fake.rules = [() => ({ reply: 'It cites [1] correctly but misses a step.\nRating: [[6]]\nIf pressed, [[9]].' })];
    await run(prepared(SINGLE), [{ question: 'What is 2+2?', answer: '4' }]);
    const req = fake.requests[0]!;
    assert.equal(req.body?.response_format, undefined);
    assert.deepEqual(req.body?.messages, [
      { role: 'system', content: 'You are a fair judge.' },
      { role: 'user', content: '[Question]\nWhat is 2+2?\n[Answer]\n4\nExplain, then end with "Rating: [[N]]" for N from 1 to 10.' },
    ]);
    assert.equal(row(1)['mt_single/score'], 6);
    assert.equal(row(1)['mt_single/justification'], 'It cites [1] correctly but misses a step.\nRating:');
    assert.equal(row(1)['mt_single/error'], undefined);
  });

  it('sends one repair request asking for [[N]] when the verdict is missing, and uses the repaired reply', async () => {
    fake.rules = [(r) => ({ reply: isRepair(r) ? 'Good. Rating: [[8]]' : 'I would say eight out of ten.' })];
    await run(prepared(SINGLE), [{ question: 'q', answer: 'a' }]);
    assert.equal(fake.requests.length, 2);
    const repair = fake.requests[1]!.body!.messages!.at(-1)!.content;
    assert.match(repair, /no verdict in the form \[\[N\]\]/);
    assert.match(repair, /"Rating: \[\[10\]\]"/);
    assert.doesNotMatch(repair, /JSON/);
    assert.equal(row(1)['mt_single/score'], 8);
  });

  it('records a failed row with error_kind invalid-reply when the repaired reply has no verdict either', async () => {
    fake.rules = [() => ({ reply: 'No rating from me.' })];
    const { stats } = await run(prepared(SINGLE), [{ question: 'q', answer: 'a' }]);
    assert.equal(fake.requests.length, 2);
    assert.equal(stats.failed, 1);
    assert.equal(row(1)['mt_single/score'], null);
    assert.equal(row(1)['mt_single/error_kind'], 'invalid-reply');
    assert.match(String(row(1)['mt_single/error']), /still invalid after one repair request/);
  });

  it('runs a free-form pairwise template through the swap: consistent, tie and position-flipped rows', async () => {
    // The judge prefers the answer containing "good"; "same" answers tie; "first" always says [[A]].
    fake.rules = [
      (r) => {
        const text = userText(r);
        const a = /\[Assistant A\]\n(.*)\n/.exec(text)?.[1] ?? '';
        const b = /\[Assistant B\]\n(.*)\n/.exec(text)?.[1] ?? '';
        if (a.includes('first') || b.includes('first')) return { reply: 'Going with the first one. [[A]]' };
        if (a === b) return { reply: 'Equally good. [[C]]' };
        return { reply: a.includes('good') ? 'A is better. [[A]]' : 'Not [[A]]-worthy... wait. B is better: [[B]]' };
      },
    ];
    await run(prepared(PAIR), [
      { question: 'q1', answer_a: 'good', answer_b: 'poor' },
      { question: 'q2', answer_a: 'same', answer_b: 'same' },
      { question: 'q3', answer_a: 'first x', answer_b: 'y' },
    ]);
    assert.equal(fake.requests.length, 6);
    assert.ok(fake.requests.every((r) => r.body?.response_format === undefined));
    // Row 1's BA reply says "[[A]]-worthy" before its [[B]]: FastChat's rule reads A (presence wins), which maps
    // back to B and disagrees with pass 1, so the swap makes it a TIE, marked inconsistent.
    assert.equal(row(1)['mt_pair/pairwise_choice'], 'TIE');
    assert.equal(row(1)['mt_pair/position_consistent'], false);
    assert.equal(row(2)['mt_pair/pairwise_choice'], 'TIE');
    assert.equal(row(2)['mt_pair/position_consistent'], true);
    assert.equal(row(2)['mt_pair/confidence'], null);
    assert.equal(row(3)['mt_pair/pairwise_choice'], 'TIE');
    assert.equal(row(3)['mt_pair/position_consistent'], false);
    const passes = row(3)['mt_pair/passes'] as { order: string; winner: string; confidence: unknown }[];
    assert.deepEqual(passes.map((p) => [p.order, p.winner, p.confidence]), [['AB', 'A', null], ['BA', 'B', null]]);
  });

  it('keeps a consistent swap verdict', async () => {
    fake.rules = [(r) => ({ reply: /\[Assistant A\]\ngood/.test(userText(r)) ? 'A wins. [[A]]' : 'B wins. [[B]]' })];
    await run(prepared(PAIR), [{ question: 'q', answer_a: 'good', answer_b: 'poor' }]);
    assert.equal(row(1)['mt_pair/pairwise_choice'], 'A');
    assert.equal(row(1)['mt_pair/position_consistent'], true);
    assert.equal(row(1)['mt_pair/justification'], 'A wins.');
  });
});
