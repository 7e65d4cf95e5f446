// `verdict.match: first | last | unique` on replies shaped like real ones: a judge that writes
// "[[A>>B]]" in its reasoning and ends with "[[A>B]]" (Arena-Hard's labels), one that quotes the
// label list back before its verdict, and a Prometheus judge that corrects itself.
import * as assert from 'node:assert/strict';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import type { PreparedJudge } from '../../src/core/judge/engine/prepare';
import { runJudge } from '../../src/core/judge/run/runner';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { validateTemplate } from '../../src/core/template';
import { verdictReader, verdictRule, type VerdictSpec } from '../../src/core/verdict';
import { FakeOpenAI, type RecordedRequest } from '../support/fakeOpenAI';
import { items } from '../support/judgeFixtures';

// Arena-Hard's five labels, written as a regex verdict with a mapping (our own wording of the prompt).
const ARENA: VerdictSpec = {
  format: 'regex',
  pattern: '\\[\\[(?<winner>A>>B|A>B|A=B|B>A|B>>A)\\]\\]',
  values: { 'A>>B': 'A', 'A>B': 'A', 'A=B': 'TIE', 'B>A': 'B', 'B>>A': 'B' },
};
const TWO_LABELS = 'Assistant A covers every case, so at first I lean to [[A>>B]]. But it misses one detail.\n\nMy final verdict is: [[A>B]]';
const QUOTED = 'The labels are [[A]], [[B]] or [[C]]. Weighing both answers, B is more precise.\nVerdict: [[B]]';

describe('verdict.match: which of several verdicts in one reply counts', () => {
  it('takes the first match by default and with `first`, the last with `last`', () => {
    const reply = 'First: [[A>>B]] … then [[B>A]]';
    for (const match of [undefined, 'first'] as const) {
      const v = verdictReader({ ...ARENA, ...(match ? { match } : {}) }, 'pairwise', undefined)(reply);
      assert.deepEqual(v, { ok: true, winner: 'A', justification: 'First:' });
    }
    assert.deepEqual(verdictReader({ ...ARENA, match: 'last' }, 'pairwise', undefined)(reply), { ok: true, winner: 'B', justification: 'First: [[A>>B]] … then' });
  });

  it('under `unique` reads a reply whose labels differ as ambiguous, even when they map to the same winner', () => {
    const v = verdictReader({ ...ARENA, match: 'unique' }, 'pairwise', undefined)(TWO_LABELS);
    assert.equal(v.ok, false);
    assert.ok(!v.ok);
    assert.equal(v.kind, 'ambiguous-verdict');
    assert.match(v.error, /"A>>B", "A>B"/);
  });

  it('under `unique` reads a verdict written twice the same way, with the text before the last one as justification', () => {
    const v = verdictReader({ ...ARENA, match: 'unique' }, 'pairwise', undefined)('So [[B>A]]. Final: [[B>A]]');
    assert.deepEqual(v, { ok: true, winner: 'B', justification: 'So [[B>A]]. Final:' });
  });

  it('tagged pairwise: FastChat presence rule by default, the verdict after a quoted label list with `last`, ambiguous with `unique`', () => {
    const read = (match?: VerdictSpec['match']) => verdictReader({ format: 'tagged', ...(match ? { match } : {}) }, 'pairwise', undefined)(QUOTED);
    assert.equal((read() as { winner: string }).winner, 'A');
    assert.equal((read('last') as { winner: string }).winner, 'B');
    const u = read('unique');
    assert.ok(!u.ok);
    assert.equal(u.kind, 'ambiguous-verdict');
  });

  it('tagged pointwise and Prometheus pick the last of several and refuse different ones under `unique`', () => {
    const tagged = 'An example rating is [[3]]. Mine: [[7]]';
    assert.equal((verdictReader({ format: 'tagged', match: 'last' }, 'pointwise', { min: 1, max: 10 })(tagged) as { score: number }).score, 7);
    assert.equal(verdictReader({ format: 'tagged', match: 'unique' }, 'pointwise', { min: 1, max: 10 })(tagged).ok, false);
    const prom = 'Feedback: solid. [RESULT] 3\nOn reflection the rubric says 4. [RESULT] 4';
    assert.equal((verdictReader({ format: 'prometheus', match: 'last' }, 'pointwise', { min: 1, max: 5 })(prom) as { score: number }).score, 4);
    assert.equal((verdictReader({ format: 'prometheus' }, 'pointwise', { min: 1, max: 5 })(prom) as { score: number }).score, 3);
    const u = verdictReader({ format: 'prometheus', match: 'unique' }, 'pointwise', { min: 1, max: 5 })(prom);
    assert.ok(!u.ok);
    assert.equal(u.kind, 'ambiguous-verdict');
  });

  it('states the rule in the preview and hover text', () => {
    assert.match(verdictRule({ ...ARENA, match: 'unique' }, 'pairwise'), /Match rule `unique`: every verdict the reply writes must be the same/);
    assert.match(verdictRule({ ...ARENA, match: 'last' }, 'pairwise'), /the last one counts/);
    assert.doesNotMatch(verdictRule(ARENA, 'pairwise'), /Match rule/);
  });
});

const ARENA_TEMPLATE = (verdictExtra: string) => `---
name: arena
kind: pairwise
freeform: true
verdict: {format: regex, pattern: "\\\\[\\\\[(?<winner>A>>B|A>B|A=B|B>A|B>>A)\\\\]\\\\]", values: {"A>>B": A, "A>B": A, "A=B": TIE, "B>A": B, "B>>A": B}${verdictExtra}}
inputs: [question, answer_a, answer_b]
pair: {a: [answer_a], b: [answer_b]}
---
Question: {{question}}
A: {{answer_a}}
B: {{answer_b}}
End with one label: [[A>>B]] (A much better), [[A>B]], [[A=B]], [[B>A]] or [[B>>A]].
`;

describe('verdict.match in the template', () => {
  it('refuses a value other than first, last or unique at its line, and `match` on a json verdict', () => {
    const bad = validateTemplate(ARENA_TEMPLATE(', match: sometimes')).filter((d) => d.severity === 'error');
    assert.equal(bad.length, 1);
    assert.equal(bad[0]!.line, 5);
    assert.match(bad[0]!.message, /must be "first", "last" or "unique"/);
    const json = validateTemplate(`---\nname: j\nkind: pointwise\nscale: [1, 5]\nverdict: {format: json, match: last}\n---\n# Task\nRate.\n# Rubric\n1: bad\n5: good\n# Input\n{{response}}\n`);
    assert.ok(json.some((d) => d.severity === 'error' && /`match` chooses among the verdicts a text reply writes/.test(d.message)));
  });

  it('warns when the prompt lists the labels the pattern reads and no rule is chosen, and not once one is', () => {
    const warned = validateTemplate(ARENA_TEMPLATE('')).filter((d) => d.code === 'verdict-labels-in-prompt');
    assert.equal(warned.length, 1);
    assert.equal(warned[0]!.severity, 'warning');
    assert.match(warned[0]!.message, /"A>>B", "A>B", "A=B", "B>A", …/);
    assert.match(warned[0]!.message, /verdict\.match: unique/);
    assert.deepEqual(validateTemplate(ARENA_TEMPLATE(', match: unique')).filter((d) => d.code === 'verdict-labels-in-prompt'), []);
    const oneExample = ARENA_TEMPLATE('').replace(/End with one label:.*/, 'End with your verdict, e.g. [[A>B]].');
    assert.deepEqual(validateTemplate(oneExample).filter((d) => d.code === 'verdict-labels-in-prompt'), []);
  });
});

describe('verdict.match: unique through the engine', () => {
  let fake: FakeOpenAI;
  let lines: Record<string, unknown>[];
  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    lines = [];
  });
  afterEach(() => fake.close());

  function prepared(text: string): PreparedJudge {
    const p = prepareJudge(text);
    assert.ok(p.ok, p.ok ? '' : JSON.stringify(p.diagnostics));
    return p.judge;
  }
  const run = (judge: PreparedJudge) =>
    runJudge({
      judge,
      client: new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 2000 }),
      settings: { model: 'm', structured: 'json_schema', schemaName: judge.metric },
      items: items([{ question: 'q', answer_a: 'x', answer_b: 'y' }]),
      write: (line) => lines.push(line),
      retry: { retries: 0, baseDelayMs: 5, maxDelayMs: 20 },
    });
  const isRepair = (r: RecordedRequest) => (r.body?.messages ?? []).some((m) => m.role === 'assistant');

  it('sends one repair asking for the verdict once, then fails the row as ambiguous-verdict with both replies kept', async () => {
    fake.rules = [() => ({ reply: TWO_LABELS })];
    const { stats } = await run(prepared(ARENA_TEMPLATE(', match: unique')));
    // Both orders: a first reply and one repair each.
    assert.equal(fake.requests.length, 4);
    const repair = fake.requests.find(isRepair)!.body!.messages!.at(-1)!.content;
    assert.match(repair, /different verdicts \("A>>B", "A>B"\)/);
    assert.equal(stats.failed, 1);
    const line = lines[0]!;
    assert.equal(line['arena/pairwise_choice'], null);
    assert.equal(line['arena/error_kind'], 'ambiguous-verdict');
    assert.deepEqual(line['arena/raw_replies'], [TWO_LABELS, TWO_LABELS]);
  });

  it('uses the repaired reply when it gives one verdict', async () => {
    fake.rules = [(r) => ({ reply: isRepair(r) ? 'Final: [[A>B]]' : TWO_LABELS })];
    await run(prepared(ARENA_TEMPLATE(', match: unique')));
    // AB reads A; BA's "A" maps back to B: the orders disagree, so today's swap rule gives TIE.
    assert.equal(lines[0]!['arena/error_kind'], undefined);
    assert.equal(lines[0]!['arena/repaired'], true);
    assert.equal(lines[0]!['arena/position_consistent'], false);
  });

  it('reads the same reply as A under the default rule, the plausible verdict unique refuses', async () => {
    fake.rules = [() => ({ reply: TWO_LABELS })];
    await run(prepared(ARENA_TEMPLATE('')));
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(
      (lines[0]!['arena/passes'] as { winner: string }[]).map((p) => p.winner),
      ['A', 'B'],
    );
  });
});
