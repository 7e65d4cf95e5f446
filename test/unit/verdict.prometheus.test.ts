// `verdict: prometheus`: Prometheus 2's "Feedback: … [RESULT] N" (absolute grading) and
// "[RESULT] A|B" (relative grading), read alone and through the real engine against the fake
// server: an unreadable reply gets one repair request in that format, then the row fails unscored.
import * as assert from 'node:assert/strict';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import type { PreparedJudge } from '../../src/core/judge/engine/prepare';
import { runJudge } from '../../src/core/judge/run/runner';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { findPrometheusVerdict, verdictReader, verdictRule } from '../../src/core/verdict';
import { validateTemplate } from '../../src/core/template';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { items } from '../support/judgeFixtures';
import { prometheusRelative } from '../support/prometheusFixtures';

const ABSOLUTE = `---
name: prometheus_abs
kind: pointwise
scale: [1, 5]
freeform: true
verdict: prometheus
inputs: [prompt, response]
---
###Task Description:
Grade the response, then end with "Feedback: (your feedback) [RESULT] (an integer between 1 and 5)".

###The instruction to evaluate:
{{prompt}}

###Response to evaluate:
{{response}}

###Feedback: 
`;

const RELATIVE = prometheusRelative('prometheus_rel');

function prepared(text: string): PreparedJudge {
  const p = prepareJudge(text);
  assert.ok(p.ok, p.ok ? '' : JSON.stringify(p.diagnostics));
  return p.judge;
}

describe('verdict: prometheus', () => {
  const abs = verdictReader({ format: 'prometheus' }, 'pointwise', { min: 1, max: 5 });
  const rel = verdictReader({ format: 'prometheus' }, 'pairwise', undefined);

  it('reads [RESULT] 4 with the feedback, minus its label, as the justification', () => {
    assert.deepEqual(abs('Feedback: Accurate but terse. [RESULT] 4'), { ok: true, score: 4, justification: 'Accurate but terse.' });
    assert.deepEqual(abs('The answer is fine.\n[RESULT] (5)'), { ok: true, score: 5, justification: 'The answer is fine.' });
    assert.deepEqual(abs('Feedback: ok [result] [3]'), { ok: true, score: 3, justification: 'ok' });
  });

  it('reads [RESULT] B and [RESULT] A for relative grading, skipping an echoed "(A or B)" only when nothing else fits', () => {
    assert.deepEqual(rel('Feedback: B cites the source. [RESULT] B'), { ok: true, winner: 'B', justification: 'B cites the source.' });
    assert.deepEqual(rel('Feedback: A is right.\n[RESULT] A\n'), { ok: true, winner: 'A', justification: 'A is right.' });
    assert.equal(findPrometheusVerdict('[RESULT] Afterwards I pick [RESULT] b', 'pairwise')?.text, 'b');
  });

  it('refuses what is not a verdict: a number outside the scale, a fraction, no marker, a tie, a score spelled differently', () => {
    assert.equal(abs('Feedback: great [RESULT] 7').ok, false);
    assert.match((abs('Feedback: great [RESULT] 4.5') as { error: string }).error, /not an integer from 1 to 5/);
    assert.equal(abs('Feedback: great. Score: 4').ok, false);
    assert.equal(rel('Feedback: both fine [RESULT] TIE').ok, false);
    assert.equal(rel('Feedback: [RESULT] 2').ok, false);
  });

  it('is stated in the preview rule and validated: the prompt should ask for [RESULT]', () => {
    assert.match(verdictRule({ format: 'prometheus' }, 'pointwise', { min: 1, max: 5 }), /first "\[RESULT\]" followed by an integer from 1 to 5/);
    const codes = (text: string) => validateTemplate(text).filter((d) => d.severity === 'error' || d.code.startsWith('verdict')).map((d) => d.code);
    assert.deepEqual(codes(ABSOLUTE), []);
    assert.deepEqual(codes(ABSOLUTE.replace(/ \[RESULT\] \(an integer between 1 and 5\)/, '')), ['verdict-not-asked']);
    const withValues = ABSOLUTE.replace('verdict: prometheus', 'verdict: {format: prometheus, values: {A: 1}}');
    assert.match(validateTemplate(withValues).map((d) => d.message).join(' '), /a prometheus verdict needs none/);
  });

  describe('through the engine', () => {
    let fake: FakeOpenAI;
    let lines: Record<string, unknown>[];
    beforeEach(async () => {
      fake = await FakeOpenAI.start();
      lines = [];
    });
    afterEach(() => fake.close());

    const run = (judge: PreparedJudge, records: Record<string, unknown>[]) =>
      runJudge({
        judge,
        client: new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 2000 }),
        settings: { model: 'prometheus-7b-v2.0', structured: 'json_schema', schemaName: judge.metric },
        items: items(records),
        write: (line) => lines.push(line),
        retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
      });
    const isRepair = (r: { body?: { messages?: { role: string }[] } }) => (r.body?.messages ?? []).some((m) => m.role === 'assistant');

    it('scores [RESULT] 4 without asking for structured output', async () => {
      fake.rules = [() => ({ reply: 'Feedback: Correct, with one vague step. [RESULT] 4' })];
      await run(prepared(ABSOLUTE), [{ prompt: 'Sum 2 and 2.', response: '4' }]);
      assert.equal(fake.requests[0]!.body?.response_format, undefined);
      assert.equal(lines[0]!['prometheus_abs/score'], 4);
      assert.equal(lines[0]!['prometheus_abs/justification'], 'Correct, with one vague step.');
    });

    it('asks once for "[RESULT] N" when the reply has none, then fails the row with no score', async () => {
      fake.rules = [() => ({ reply: 'I would rate this highly.' })];
      const { stats } = await run(prepared(ABSOLUTE), [{ prompt: 'p', response: 'r' }]);
      assert.equal(fake.requests.length, 2);
      const repair = fake.requests[1]!.body!.messages!.at(-1)!.content;
      assert.match(repair, /no verdict in the form "\[RESULT\] N"/);
      assert.match(repair, /\[RESULT\] \(an integer from 1 to 5\)/);
      assert.doesNotMatch(repair, /JSON/);
      assert.equal(stats.failed, 1);
      assert.equal(lines[0]!['prometheus_abs/score'], null);
      assert.equal(lines[0]!['prometheus_abs/error_kind'], 'invalid-reply');
    });

    it('uses the repaired reply when the second answer has the verdict', async () => {
      fake.rules = [(r) => ({ reply: isRepair(r) ? 'Feedback: Fine. [RESULT] 2' : 'Two, I think.' })];
      await run(prepared(ABSOLUTE), [{ prompt: 'p', response: 'r' }]);
      assert.equal(lines[0]!['prometheus_abs/score'], 2);
      assert.equal(lines[0]!['prometheus_abs/repaired'], true);
    });

    it('runs relative grading through the position swap and maps [RESULT] B back', async () => {
      // The judge prefers the response that says "cited", wherever it is shown.
      fake.rules = [
        (r) => {
          const user = r.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
          const b = /###Response B:\n(.*)\n/.exec(user)?.[1] ?? '';
          return { reply: `Feedback: one cites its source. [RESULT] ${b.includes('cited') ? 'B' : 'A'}` };
        },
      ];
      await run(prepared(RELATIVE), [{ prompt: 'p', response_a: 'plain', response_b: 'cited' }]);
      assert.equal(fake.requests.length, 2);
      assert.equal(lines[0]!['prometheus_rel/pairwise_choice'], 'B');
      assert.equal(lines[0]!['prometheus_rel/position_consistent'], true);
      assert.equal(lines[0]!['prometheus_rel/confidence'], null);
    });
  });
});
