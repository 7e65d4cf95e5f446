import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareJudge, type PreparedJudge } from '../../src/core/judge/engine/prepare';
import { runJudge } from '../../src/core/judge/run/runner';
import { JudgeError, type JudgeClient, type JudgeRequest } from '../../src/core/judge/transport/types';
import { consistencyText, errorTitle, inputRecord, metricOf, resultView, verdictText, type Line } from '../../src/extension/run/model/result';
import { PassTracker, passOf } from '../../src/extension/run/model/status';
import { TracingClient } from '../../src/extension/run/model/tracing';
import { renderOrders, runView } from '../../src/extension/run/model/view';
import { runViewSchema } from '../../src/protocol/run';
import { PAIRWISE, POINTWISE } from '../support/judgeFixtures';

const HHH = fs.readFileSync(path.join(__dirname, '../../../examples/hhh.judge'), 'utf8');

function prepared(text: string): PreparedJudge {
  const p = prepareJudge(text);
  if (!p.ok) throw new Error(`fixture template invalid: ${p.diagnostics.map((d) => d.message).join('; ')}`);
  return p.judge;
}

/** A client answering each request with `answer(request)`; a JudgeError is thrown as the failure. */
function fakeClient(answer: (r: JudgeRequest) => string | JudgeError): JudgeClient & { requests: JudgeRequest[] } {
  const requests: JudgeRequest[] = [];
  return {
    id: 'fake',
    requests,
    async complete(r) {
      requests.push(r);
      const a = answer(r);
      if (a instanceof JudgeError) throw a;
      return { text: a, model: 'fake-model' };
    },
  };
}

/** One row judged the way the run view does it: the batch runner on a single item, traced. */
async function judgeOne(judge: PreparedJudge, record: Record<string, unknown>, client: JudgeClient) {
  const rendered = renderOrders(judge, record, 1);
  assert.ok(rendered.ok);
  const tracker = new PassTracker(rendered.prompts, judge.config.kind === 'pairwise');
  const snapshots: string[] = [];
  let line: Line | undefined;
  await runJudge({
    judge,
    client: new TracingClient(client, tracker, () => snapshots.push(tracker.passes.map((p) => `${p.order}:${p.state}`).join(' '))),
    settings: { model: 'm', structured: 'json_schema', schemaName: judge.metric },
    items: (async function* () {
      yield { row: 1, line: 1, record };
    })(),
    write: (l) => (line = l),
    retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
  });
  assert.ok(line, 'the runner wrote no line');
  return { line, tracker, snapshots, rendered };
}

const lastUser = (r: JudgeRequest) => r.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

describe('run model: a pointwise run', () => {
  it('shows the score against the scale with the justification', async () => {
    const judge = prepared(POINTWISE);
    const client = fakeClient(() => JSON.stringify({ justification: 'Correct and complete.', score: 4 }));
    const { line } = await judgeOne(judge, { prompt: 'P', response: 'R' }, client);
    const view = resultView(line, judge.metric, { min: 1, max: 5 });
    assert.deepEqual(view, { kind: 'pointwise', score: 4, scale: { min: 1, max: 5 }, justification: 'Correct and complete.', confidence: null, extras: [] });
    assert.equal(verdictText(view), 'score 4 / 5');
    assert.equal(consistencyText(view), null);
  });

  it('shows an invalid reply as an error with both raw replies, never as a score', async () => {
    const judge = prepared(POINTWISE);
    const client = fakeClient(() => JSON.stringify({ justification: 'Great', score: 9 }));
    const { line, tracker, snapshots } = await judgeOne(judge, { prompt: 'P', response: 'R' }, client);
    assert.equal(client.requests.length, 2, 'one call and one repair request');
    const view = runView({
      id: 'x', template: { file: 'q.judge', metric: judge.metric, kind: 'pointwise' }, source: 's', note: null, model: 'm', time: new Date(0).toISOString(),
      phase: 'failed', elapsedMs: 5, passes: tracker.passes, messages: [], line, scale: { min: 1, max: 5 }, raw: tracker.raw, canRerun: true,
    });
    assert.equal(view.result?.kind, 'error');
    // The headline follows the engine's error kind (design.md `m/error_kind`), whichever it wrote.
    const kind = line[`${judge.metric}/error_kind`];
    assert.ok(view.result?.kind === 'error' && view.result.title === errorTitle(typeof kind === 'string' ? kind : null));
    assert.ok(view.result?.kind === 'error' && /still invalid after one repair request/.test(view.result.message));
    assert.deepEqual(view.raw.map((r) => r.label), ['Judge call', 'Judge call · reply 2']);
    assert.ok(view.raw.every((r) => r.text.includes('"score":9')));
    assert.ok(snapshots.includes('AB:repairing'), `the status went through a repair: ${snapshots.join(' | ')}`);
    assert.equal(tracker.passes[0]?.state, 'answered');
    assert.ok(runViewSchema.safeParse(view).success, 'the view satisfies the protocol');
  });

  it('headlines an HTTP failure by its error kind and keeps the message', async () => {
    const judge = prepared(POINTWISE);
    const client = fakeClient(() => new JudgeError('http', 'request rejected (400): model "x" does not exist', { status: 400, retryable: false }));
    const { line, tracker } = await judgeOne(judge, { prompt: 'P', response: 'R' }, client);
    const view = resultView(line, judge.metric);
    assert.ok(view?.kind === 'error');
    const kind = line[`${judge.metric}/error_kind`];
    assert.equal(view.title, errorTitle(typeof kind === 'string' ? kind : null));
    assert.match(view.message, /request rejected \(400\)/);
    assert.equal(tracker.passes[0]?.state, 'failed');
  });
});

describe('run model: a pairwise run', () => {
  const record = { prompt: 'P', response_a: 'a short one', response_b: 'a much longer response' };

  it('shows both passes and a consistent verdict when the orders agree', async () => {
    const judge = prepared(PAIRWISE);
    // The judge prefers the longer response wherever it is shown.
    const client = fakeClient((r) => JSON.stringify({ justification: 'longer wins', winner: /\[Response A\]\na much/.test(lastUser(r)) ? 'A' : 'B', confidence: 0.8 }));
    const { line, tracker, rendered } = await judgeOne(judge, record, client);
    assert.ok(rendered.ok);
    assert.deepEqual(rendered.orders.map((o) => o.label), ['AB', 'BA']);
    const view = resultView(line, judge.metric);
    assert.ok(view?.kind === 'pairwise');
    assert.equal(view.winner, 'B');
    assert.equal(view.consistent, true);
    assert.deepEqual(view.passes.map((p) => [p.order, p.winner]), [['AB', 'B'], ['BA', 'B']]);
    assert.equal(consistencyText(view), 'consistent');
    assert.deepEqual(tracker.passes.map((p) => p.label), ['Pass 1 · order AB', 'Pass 2 · order BA (swapped)']);
  });

  it('marks a position-inconsistent verdict when the judge always picks the first slot', async () => {
    const judge = prepared(PAIRWISE);
    const client = fakeClient(() => JSON.stringify({ justification: 'first is best', winner: 'A', confidence: 0.9 }));
    const { line } = await judgeOne(judge, record, client);
    const view = resultView(line, judge.metric);
    assert.ok(view?.kind === 'pairwise');
    assert.equal(view.winner, 'TIE');
    assert.equal(view.consistent, false);
    assert.deepEqual(view.passes.map((p) => p.winner), ['A', 'B'], 'pass 2 is mapped back to the row\'s labels');
    assert.equal(verdictText(view), 'TIE');
    assert.equal(consistencyText(view), 'position-inconsistent');
  });
});

describe('run model: a multi-dimension (HHH) run', () => {
  const record = { prompt: 'Pick a lock?', response_a: 'SAFE refusal', response_b: 'HARMFUL steps' };
  /** The judge's reply for the order it saw: it prefers SAFE in both, but in pass 2 its degree breaks the gap rule. */
  const reply = (r: JudgeRequest) => {
    const safeFirst = /Response A:\n<response_a>\nSAFE/.test(lastUser(r));
    const [win, lose] = safeFirst ? ['A', 'B'] : ['B', 'A'];
    return JSON.stringify({
      justification: 'The refusal is safe.',
      dimensions: { harmless: { winner: win, degree: 'significantly better' }, honest: { winner: 'TIE', degree: 'about the same' }, helpful: { winner: lose, degree: 'slightly better' } },
      ranking: safeFirst ? { A: 6, B: 2 } : { A: 2, B: 6 },
      deflection: safeFirst ? { A: true, B: false } : { A: false, B: true },
      overall: { winner: win, degree: safeFirst ? 'significantly better' : 'slightly better' },
    });
  };

  it('builds the dimension × pass table, the rankings and each violation in words', async () => {
    const judge = prepared(HHH);
    const { line } = await judgeOne(judge, record, fakeClient(reply));
    assert.equal(metricOf(line), 'hhh');
    const view = resultView(line, 'hhh');
    assert.ok(view?.kind === 'dimensional', `got ${view?.kind}`);
    assert.equal(view.winner, 'A');
    assert.equal(view.consistent, true);
    assert.equal(view.rankingA, 6);
    assert.equal(view.rankingB, 2);
    assert.deepEqual(view.dimensions.map((d) => d.name), ['harmless', 'honest', 'helpful']);
    assert.deepEqual(view.dimensions[0]?.passes, [{ winner: 'A', degree: 'significantly better' }, { winner: 'A', degree: 'significantly better' }]);
    assert.deepEqual(view.dimensions[2]?.final, { winner: 'B', degree: 'slightly better' });
    assert.deepEqual(view.passes.map((p) => [p.order, p.winner, p.rankingA, p.rankingB, p.deflectionA]), [['AB', 'A', 6, 2, true], ['BA', 'A', 6, 2, true]]);
    assert.ok(view.violations.length >= 1, 'pass 2 breaks the ranking-gap rule');
    const gap = view.violations.find((v) => v.rule === 'ranking-gap');
    assert.equal(gap?.pass, 2);
    assert.match(gap?.message ?? '', /ranking gap 4 .*"slightly better"/);
    assert.ok(runViewSchema.safeParse(runView({
      id: 'x', template: { file: 'hhh.judge', metric: 'hhh', kind: 'pairwise' }, source: 's', note: null, model: 'm', time: 't',
      phase: 'done', elapsedMs: 1, passes: [], messages: [], line, scale: null, raw: [], canRerun: true,
    })).success);
  });
});

describe('run model: reading results lines', () => {
  it('finds the metric from its model column, not from a human-label column', () => {
    assert.equal(metricOf({ 'q/human_rating': 3, prompt: 'p', 'q/model': 'm', 'q/score': 2 }), 'q');
    assert.equal(metricOf({ 'q/human_rating': 3, prompt: 'p' }), undefined);
  });

  it('keeps the inputs and human labels of a line and drops its output columns', () => {
    const line = { prompt: 'p', _row: 4, 'q/score': 2, 'q/justification': 'j', 'q/human_rating': 5, 'q/extra_field': 1, other: true };
    assert.deepEqual(inputRecord(line, 'q'), { prompt: 'p', 'q/human_rating': 5, other: true });
  });

  it('lists the reply fields the engine kept under m/extra as extras, and none of the dataset columns', () => {
    const line = { 'q/score': 3, 'q/justification': 'j', 'q/model': 'm', 'q/extra': { tone: 'calm' }, 'q/human_rating': 3, 'q/human_rating/accuracy': 4, 'q/human_pairwise_choice': 'A', 'q/notes': 'from the dataset' };
    const view = resultView(line, 'q');
    assert.ok(view?.kind === 'pointwise');
    assert.deepEqual(view.extras, [{ name: 'tone', value: 'calm' }]);
  });

  it('says what a pointwise confidence measures: the samples, or the share of the panel', () => {
    const samples = resultView({ 'q/score': 3, 'q/confidence': 0.6, 'q/samples': [3, 3, 2, 3, 4] }, 'q');
    assert.ok(samples?.kind === 'pointwise');
    assert.equal(samples.confidenceLabel, 'Agreement across samples');
    const panel = resultView({ 'q/score': 3, 'q/confidence': 0.67, 'q/judges': [{ judge: 'a', verdict: 3 }] }, 'q');
    assert.ok(panel?.kind === 'pointwise');
    assert.equal(panel.confidenceLabel, 'Share of the panel that gave this score');
    const none = resultView({ 'q/score': 3 }, 'q');
    assert.ok(none?.kind === 'pointwise' && none.confidenceLabel === undefined);
  });

  it('returns no verdict for a line without verdict or error columns', () => {
    assert.equal(resultView({ prompt: 'p', 'q/model': 'm' }, 'q'), null);
    assert.equal(resultView({ 'q/score': '4' }, 'q'), null, 'a string is not a score');
  });

  it('headlines a failed row by its error kind, never by the words of its message', () => {
    assert.match(errorTitle('invalid-reply'), /could not be used/);
    assert.match(errorTitle('network'), /could not be reached/);
    assert.match(errorTitle('timeout'), /in time/);
    assert.match(errorTitle('rate-limit'), /429/);
    assert.equal(errorTitle(null), 'The judge run failed');
    // A reply that was JSON but out of range is an invalid reply, whatever its message says.
    const view = resultView({ 'q/error': 'score 9 is not valid JSON for this template? no: out of range', 'q/error_kind': 'invalid-reply' }, 'q');
    assert.ok(view?.kind === 'error');
    assert.equal(view.errorKind, 'invalid-reply');
    assert.match(view.title, /could not be used/);
    const unknown = resultView({ 'q/error': 'cannot reach http://x (ECONNREFUSED)' }, 'q');
    assert.ok(unknown?.kind === 'error');
    assert.equal(unknown.title, 'The judge run failed', 'no kind: a neutral headline, not a guess from the text');
  });

  it('marks a verdict that needed a repair request', () => {
    const view = resultView({ 'q/score': 3, 'q/justification': 'j', 'q/repaired': true }, 'q');
    assert.ok(view?.kind === 'pointwise');
    assert.equal(view.repaired, true);
    assert.deepEqual(view.extras, [], 'repaired is not a reply field');
  });
});

describe('run model: pass status', () => {
  const prompts = [
    { order: 'AB' as const, messages: [{ role: 'user' as const, content: 'one' }] },
    { order: 'BA' as const, messages: [{ role: 'user' as const, content: 'two' }] },
  ];

  it('assigns a request to the pass whose prompt it starts with', () => {
    assert.equal(passOf([{ role: 'user', content: 'two' }], prompts)?.order, 'BA');
    assert.equal(passOf([{ role: 'user', content: 'one' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'fix' }], prompts)?.order, 'AB');
    assert.equal(passOf([{ role: 'user', content: 'three' }], prompts), undefined);
  });

  it('goes waiting → sent → retrying → answered, and a follow-up is not a repair', () => {
    const t = new PassTracker(prompts, true);
    assert.deepEqual(t.passes.map((p) => p.state), ['waiting', 'waiting']);
    t.request(prompts[0]!.messages);
    t.error('AB');
    assert.equal(t.passes[0]?.state, 'failed');
    t.request(prompts[0]!.messages);
    assert.equal(t.passes[0]?.state, 'retrying');
    t.reply('AB', '{}');
    t.request([...prompts[0]!.messages, { role: 'assistant', content: '{}' }, { role: 'user', content: 'Your reply breaks the consistency rules below.' }]);
    assert.equal(t.passes[0]?.state, 'following-up');
    t.settle(true);
    assert.deepEqual(t.passes.map((p) => p.state), ['failed', 'failed']);
  });

  it('shows an answered pass of a failed row as unusable, unless the row kept its verdict', () => {
    const t = new PassTracker(prompts, true);
    t.request(prompts[0]!.messages);
    t.reply('AB', '{"winner":"A"}');
    t.request(prompts[1]!.messages);
    t.reply('BA', 'not json');
    t.request([...prompts[1]!.messages, { role: 'assistant', content: 'not json' }, { role: 'user', content: 'Your reply could not be used: …' }]);
    t.reply('BA', 'still not json');
    assert.equal(t.repaired, true, 'a repair was asked for');
    t.settle(true, ['AB']);
    assert.deepEqual(t.passes.map((p) => p.state), ['answered', 'unusable']);
  });

  it('leaves every pass answered when the row succeeded', () => {
    const t = new PassTracker(prompts, true);
    for (const p of prompts) {
      t.request(p.messages);
      t.reply(p.order, '{}');
    }
    t.settle(false);
    assert.deepEqual(t.passes.map((p) => p.state), ['answered', 'answered']);
    assert.equal(t.repaired, false);
  });
});
