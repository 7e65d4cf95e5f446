// The engine never picks among what a judge said ambiguously, and states no confidence the judge
// did not give: a repeated JSON key or two disagreeing JSON verdicts are invalid (one repair, then
// a failed row); a text verdict's confidence is null, except the swap rule's 0.5; a panel of text
// judges states none either. Tiers and panels compose in core: a panel is the escalation judge.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readReply } from '../../src/core/judge/engine/pass';
import { prepareJudge, type PreparedJudge } from '../../src/core/judge/engine/prepare';
import { compositionError } from '../../src/core/judge/engine/compose';
import { runJudge, type RunnerOptions } from '../../src/core/judge/run/runner';
import { TierStats } from '../../src/core/judge/tiers/tiered';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import type { JudgeSettings } from '../../src/core/judge/engine/settings';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import type { RecordedRequest } from '../support/fakeOpenAI';
import { items, PAIRWISE, POINTWISE, slots } from '../support/judgeFixtures';

function prepared(text: string): PreparedJudge {
  const p = prepareJudge(text);
  assert.ok(p.ok, p.ok ? '' : JSON.stringify(p.diagnostics));
  return p.judge;
}
const isRepair = (r: RecordedRequest) => (r.body?.messages ?? []).some((m) => m.role === 'assistant');
const TAGGED_PAIR = PAIRWISE.replace('inputs: [prompt, response_a, response_b]', 'inputs: [prompt, response_a, response_b]\nverdict: tagged').replace(
  '# Task',
  '# Output format\nExplain, then end with [[A]], [[B]] or [[C]] for a tie.\n\n# Task',
);

describe('ambiguous JSON replies are invalid, never resolved silently', () => {
  const { strategy } = prepared(POINTWISE);

  it('refuses a JSON object that gives a key twice (JSON.parse would keep the last)', () => {
    const r = readReply(strategy, '{"justification": "x", "score": 1, "score": 5}');
    assert.deepEqual(r, { ok: false, error: 'the JSON object gives the key "score" more than once; give each field once' });
    assert.equal(readReply(strategy, '{"justification": "x", "nested": {"a": 1, "b": {"a": 2}}, "score": 4}').ok, true, 'the same key in two objects is fine');
  });

  it('refuses two fenced JSON verdicts that disagree, and accepts the same verdict given twice', () => {
    const two = '```json\n{"justification": "first", "score": 2}\n```\nActually:\n```json\n{"justification": "second", "score": 5}\n```';
    const r = readReply(strategy, two);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /the reply holds 2 different verdicts in its JSON \(2 \/ 5\); give exactly one/);
    const same = '```json\n{"justification": "a", "score": 4}\n```\nSo: {"justification": "a", "score": 4}';
    assert.deepEqual(readReply(strategy, same), { ok: true, value: { justification: 'a', score: 4 } });
  });

  it('reads renamed JSON fields by the same rule', () => {
    const renamed = prepared(
      POINTWISE.replace('scale: [1, 5]\n', 'scale: [0, 1]\n')
        .replace('inputs: [prompt, response]', 'inputs: [prompt, response]\nverdict:\n  format: json\n  fields: {score: pass}\n  values: {"yes": 1, "no": 0}')
        .replace(/# Rubric\n[\s\S]*?\n\n# Evaluation/, '# Rubric\n- 0: It fails.\n- 1: It passes.\n\n# Evaluation'),
    );
    assert.equal(readReply(renamed.strategy, '{"pass": "yes", "pass": "no"}').ok, false);
    assert.equal(readReply(renamed.strategy, 'A: {"pass": "yes"} B: {"pass": "no"}').ok, false);
    assert.deepEqual(readReply(renamed.strategy, 'Verdict: {"pass": "yes"}'), { ok: true, value: { justification: '', score: 1 } });
  });
});

describe('the engine judges through its composed parts', function () {
  this.timeout(20_000);
  let fakes: FakeOpenAI[];
  let lines: Record<string, unknown>[];
  beforeEach(async () => {
    fakes = [await FakeOpenAI.start(), await FakeOpenAI.start(), await FakeOpenAI.start()];
    lines = [];
  });
  afterEach(async () => Promise.all(fakes.map((f) => f.close())));

  const settings = (judge: PreparedJudge, model = 'm'): JudgeSettings => ({ model, structured: 'json_schema', schemaName: judge.metric });
  const client = (i: number) => new OpenAICompatibleClient({ baseURL: fakes[i]!.baseURL, timeoutMs: 5_000 });
  function run(judge: PreparedJudge, records: Record<string, unknown>[], extra: Partial<RunnerOptions> = {}) {
    return runJudge({ judge, client: client(0), settings: settings(judge), items: items(records), write: (l) => lines.push(l), retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 }, ...extra });
  }

  it('a repeated key gets the one repair and then fails the row as invalid-reply, never scored', async () => {
    fakes[0]!.rules = [() => reply('{"justification": "x", "score": 1, "score": 5}')];
    await run(prepared(POINTWISE), [{ prompt: 'p', response: 'r' }]);
    assert.equal(fakes[0]!.chats.length, 2);
    assert.match(fakes[0]!.chats[1]!.prompt, /gives the key "score" more than once/);
    assert.equal(lines[0]!['quality/score'], null);
    assert.equal(lines[0]!['quality/error_kind'], 'invalid-reply');
  });

  it('a tagged pairwise verdict states no confidence, but an inconsistent swap keeps the rule’s 0.5, as JSON templates do', async () => {
    // Always picks the response in slot A: consistent only when both are the same length, never here.
    fakes[0]!.rules = [(r) => reply(slots(r.prompt).a === 'same' ? 'Both equal. [[C]]' : 'A reads better. [[A]]')];
    await run(prepared(TAGGED_PAIR), [
      { prompt: 'q1', response_a: 'x', response_b: 'y' },
      { prompt: 'q2', response_a: 'same', response_b: 'same' },
    ]);
    const byRow = new Map(lines.map((l) => [l._row, l]));
    assert.equal(byRow.get(1)!['pref/position_consistent'], false);
    assert.equal(byRow.get(1)!['pref/confidence'], 0.5, 'the swap rule, not a stated confidence');
    assert.equal(byRow.get(2)!['pref/position_consistent'], true);
    assert.equal(byRow.get(2)!['pref/confidence'], null, 'a tagged verdict states none');
    (byRow.get(1)!['pref/passes'] as { confidence: unknown }[]).forEach((p) => assert.equal(p.confidence, null));
  });

  it('a panel of tagged judges states no confidence (null, not 0.5)', async () => {
    for (const f of fakes) f.rules = [(r) => reply(slots(r.prompt).a.length >= slots(r.prompt).b.length ? 'A wins. [[A]]' : 'B wins. [[B]]')];
    const judge = prepared(TAGGED_PAIR);
    const members = [0, 1, 2].map((i) => ({ label: `j${i}`, client: client(i), settings: settings(judge, `j${i}`), cacheScope: `s${i}` }));
    await run(judge, [{ prompt: 'q', response_a: 'long answer', response_b: 'short' }], { panel: { members } });
    assert.equal(lines[0]!['pref/pairwise_choice'], 'A');
    assert.equal(lines[0]!['pref/panel_agreement'], 1);
    assert.equal(lines[0]!['pref/confidence'], null);
  });

  it('a tiered run escalates to a panel: the screen decides sure rows, the panel the others, both recorded', async () => {
    const judge = prepared(POINTWISE);
    // The screen (fake 0, model "screen") is unsure (band 2-4) about "hard" rows; the panel gives 5.
    fakes[0]!.rules = [(r) => reply({ justification: 'screen', score: /hard/.test(r.prompt) ? 3 : 1 })];
    for (const f of fakes.slice(1)) f.rules = [(r) => (isRepair(r) ? undefined : reply({ justification: 'panel', score: 5 }))];
    const members = [1, 2].map((i) => ({ label: `big${i}`, client: client(i), settings: settings(judge, `big${i}`), cacheScope: `s${i}` }));
    const stats = new TierStats('screen', 'big1, big2');
    await run(judge, [{ prompt: 'easy', response: 'r' }, { prompt: 'hard', response: 'r' }], {
      settings: settings(judge, 'screen'),
      panel: { members },
      tiers: { options: { screenModel: 'screen', escalate: { band: [2, 4] } }, stats },
    });
    const byRow = new Map(lines.map((l) => [l._row, l]));
    assert.deepEqual([byRow.get(1)!['quality/tier'], byRow.get(1)!['quality/score']], ['screen', 1]);
    assert.deepEqual([byRow.get(2)!['quality/tier'], byRow.get(2)!['quality/score']], ['judge', 5]);
    assert.equal((byRow.get(2)!['quality/judges'] as unknown[]).length, 2, 'the panel’s votes are on the escalated row');
    assert.deepEqual(byRow.get(2)!['quality/escalation'], ['band']);
    assert.equal(fakes[0]!.chats.length, 2);
    assert.equal(fakes[1]!.chats.length, 1, 'the panel judged only the escalated row');
    assert.equal(stats.escalated, 1);
  });

  it('refuses in core, for every front end, a panel on a template with dimensions', () => {
    const hhh = prepared(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'examples', 'hhh.judge'), 'utf8'));
    assert.match(compositionError({ judge: hhh, panel: { members: [{ settings: { model: 'a' } }, { settings: { model: 'b' } }] } }) ?? '', /cannot be judged by a panel/);
  });
});
