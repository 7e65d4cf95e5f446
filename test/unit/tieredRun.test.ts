// Tiered judging through the CLI and the local fake server: a screen model and a big judge whose
// verdicts differ, escalation by band and by a failed screen reply, a seeded audit sample, the
// cost summary and the threshold sweep.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { auditPick, escalationReasons, parseEscalation } from '../../src/core/judge/tiers/tiered';
import { sweepThresholds } from '../../src/core/judge/tiers/thresholdSweep';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { CASES, CRITERIA_DIR, criteriaJudge, criteriaReply, fixtureScores } from '../support/criteriaFixtures';
import { captureIO, readJsonl, tempDir } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '..', '..', '..');
type Line = Record<string, unknown>;
type Verdict = { model: string; score: number | null; score_rounded: number | null; error_kind?: string };
type Tiers = { screen: Verdict; judge: Verdict | null; audit_percent: number };

/** The screen fails on this response every time (invalid, then invalid after repair). */
const BROKEN = CASES[4]!.response as string;
/** The big judge scores accuracy one point higher (capped at 5) than the screen. */
const bigScores = (response: string) => {
  const s = fixtureScores(response);
  return { ...s, accuracy: Math.min(5, s.accuracy! + 1) };
};
const overall = (s: Record<string, number>) => 0.5 * s.accuracy! + 0.25 * s.clarity! + 0.25 * s.depth!;

describe('tiered judging', () => {
  let fake: FakeOpenAI;
  let dir: string;

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
    fake.rules = [
      criteriaJudge((response, model) => {
        if (model === 'small') return response === BROKEN ? 'not json at all' : criteriaReply(fixtureScores(response));
        if (model === 'big') return criteriaReply(bigScores(response));
        return undefined;
      }),
    ];
  });
  afterEach(() => fake.close());

  async function cli(args: string[]) {
    const io = captureIO(ROOT, {});
    const code = await main(args, io);
    return { code, io };
  }

  async function run(extra: string[]) {
    const out = path.join(dir, 'q.results.jsonl');
    const r = await cli(['run', path.join(CRITERIA_DIR, 'q.judge'), '--data', path.join(CRITERIA_DIR, 'cases.jsonl'), '--base-url', fake.baseURL, '--model', 'big', '--screen-model', 'small', '--out', out, '--no-cache', '--json', ...extra]);
    return { ...r, out, lines: readJsonl(out).sort((a, b) => Number(a._row) - Number(b._row)) };
  }

  it('escalates the band and the failed screen reply to the big judge, records which tier decided and both verdicts', async () => {
    const { code, io, lines } = await run(['--escalate', 'failed,band=2.5-3.5', '--price', '10,30', '--screen-price', '1,3']);
    assert.equal(code, EXIT_OK, io.err);
    let escalated = 0;
    for (const line of lines) {
      const response = line.response as string;
      const tiers = line['q/tiers'] as Tiers;
      const screenScore = response === BROKEN ? null : overall(fixtureScores(response));
      const inBand = screenScore !== null && screenScore >= 2.5 && screenScore <= 3.5;
      const up = response === BROKEN || inBand;
      if (up) escalated++;
      assert.equal(line['q/tier'], up ? 'judge' : 'screen', String(line.id));
      assert.deepEqual(line['q/escalation'], response === BROKEN ? ['failed'] : inBand ? ['band'] : []);
      assert.equal(tiers.screen.model, 'small');
      if (response === BROKEN) assert.equal(tiers.screen.error_kind, 'invalid-reply');
      else assert.equal(tiers.screen.score, screenScore);
      if (up) {
        assert.equal(tiers.judge?.model, 'big');
        assert.equal(line['q/score'], overall(bigScores(response)), 'the big judge decides an escalated row');
        assert.equal(line['q/model'], 'big');
        if (response !== BROKEN && fixtureScores(response).accuracy! < 5) assert.notEqual(tiers.judge?.score, tiers.screen.score, 'the two models disagree here');
      } else {
        assert.equal(tiers.judge, null);
        assert.equal(line['q/score'], screenScore);
      }
      assert.equal(line['q/error'], undefined, 'an escalated failure the big judge answered is not a failed row');
    }
    assert.ok(escalated > 1 && escalated < lines.length, `a real mix (${escalated})`);
    const summary = JSON.parse(io.out) as { tiers: { rows: number; escalated: number; escalated_share: number; by_reason: Record<string, number>; cost: { actual: number; all_judge: number; saved: number } } };
    assert.equal(summary.tiers.rows, CASES.length);
    assert.equal(summary.tiers.escalated, escalated);
    assert.equal(summary.tiers.escalated_share, escalated / CASES.length);
    assert.equal(summary.tiers.by_reason.failed, 1);
    assert.ok(summary.tiers.cost.saved > 0 && summary.tiers.cost.actual < summary.tiers.cost.all_judge, JSON.stringify(summary.tiers.cost));
    assert.match(io.err, /escalated to big/);
    // Only escalated rows cost a big call (each one call); the broken row cost the screen a repair.
    assert.equal(fake.chats.filter((c) => c.body?.model === 'big').length, escalated);
  });

  it('audits a seeded random share of the rows the screen kept, and the threshold sweep measures them', async () => {
    const { code, io, lines } = await run(['--escalate', 'failed,band=3-3', '--audit', '50', '--audit-seed', '7']);
    assert.equal(code, EXIT_OK, io.err);
    const kept = lines.filter((l) => (l['q/escalation'] as string[]).length === 0);
    const audited = kept.filter((l) => l['q/audit'] === true);
    assert.deepEqual(audited.map((l) => l._row), kept.filter((l) => auditPick(7, Number(l._row), 50)).map((l) => l._row), 'the seed picks the rows');
    assert.ok(audited.length > 0 && audited.length < kept.length);
    for (const l of audited) {
      assert.equal(l['q/tier'], 'screen', 'an audit does not change the verdict');
      assert.equal((l['q/tiers'] as Tiers).judge?.model, 'big');
    }
    assert.equal(lines.filter((l) => l['q/audit'] === true && (l['q/escalation'] as string[]).length > 0).length, 0);

    const t = await cli(['thresholds', path.join(dir, 'q.results.jsonl'), '--metric', 'q', '--by', 'band', '--json']);
    assert.equal(t.code, EXIT_OK, t.io.err);
    const report = JSON.parse(t.io.out) as { rows: number; audited: number; audit_percent: number; points: { rule: string; escalation_rate: number; agreement_judge: number | null; agreement_human: number | null; human_n: number }[] };
    assert.equal(report.rows, CASES.length);
    assert.equal(report.audited, audited.length);
    assert.equal(report.audit_percent, 50);
    // "none" escalates only the failed screen reply; agreement is estimated from the audited rows
    // (each standing for 2 rows) and the escalated ones, recomputed here by hand.
    const none = report.points.find((p) => p.rule === 'none')!;
    assert.equal(none.escalation_rate, 1 / CASES.length);
    let seen = 0;
    let agree = 0;
    for (const l of lines) {
      const tiers = l['q/tiers'] as Tiers;
      if (!tiers.judge || tiers.screen.score === null) continue;
      const w = l['q/audit'] === true ? 2 : 1;
      seen += w;
      if (tiers.judge.score_rounded === tiers.screen.score_rounded) agree += w;
    }
    const expected = (1 + (CASES.length - 1) * (agree / seen)) / CASES.length;
    assert.ok(Math.abs(none.agreement_judge! - expected) < 1e-6, `${none.agreement_judge} vs ${expected}`);
    // Escalating everything (the widest band) agrees with the big judge by definition.
    const all = report.points.find((p) => p.escalation_rate === 1)!;
    assert.equal(all.agreement_judge, 1);
    assert.ok(none.human_n > 0, 'human labels are compared where the final verdict is known');
    assert.ok(report.points.every((p, i) => i === 0 || p.escalation_rate >= report.points[i - 1]!.escalation_rate), 'sorted by escalation rate');
  });

  it('refuses tier options without --screen-model, and a screen model equal to the judge', async () => {
    const base = ['run', path.join(CRITERIA_DIR, 'q.judge'), '--data', path.join(CRITERIA_DIR, 'cases.jsonl'), '--base-url', fake.baseURL, '--model', 'big', '--out', path.join(dir, 'x.jsonl')];
    assert.equal((await cli([...base, '--audit', '10'])).code, EXIT_USAGE);
    assert.equal((await cli([...base, '--screen-model', 'big'])).code, EXIT_USAGE);
    assert.equal((await cli([...base, '--screen-model', 'small', '--escalate', 'sometimes'])).code, EXIT_USAGE);
  });
});

describe('tiered pairwise judging', () => {
  let fake: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    dir = tempDir();
    // The screen always names whichever response is shown first: its two orders disagree. The big
    // judge (the fake's default) picks the longer response in both orders.
    fake.rules = [(r) => (r.body?.model === 'small' ? reply({ justification: 'first one', winner: 'A', confidence: 0.9 }) : undefined)];
  });
  afterEach(() => fake.close());

  it('escalates a position-inconsistent screen verdict and keeps both verdicts', async () => {
    const out = path.join(dir, 'pair.jsonl');
    const io = captureIO(ROOT, {});
    const code = await main(['run', 'examples/fluency_pairwise.judge', '--data', 'examples/fluency_pairwise.jsonl', '--base-url', fake.baseURL, '--model', 'big', '--screen-model', 'small', '--escalate', 'inconsistent', '--out', out, '--no-cache'], io);
    assert.equal(code, EXIT_OK, io.err);
    const lines = readJsonl(out);
    assert.equal(lines.length, 6);
    for (const l of lines) {
      const tiers = l['pairwise_fluency/tiers'] as { screen: { pairwise_choice: string; position_consistent: boolean }; judge: { pairwise_choice: string; model: string } };
      assert.equal(l['pairwise_fluency/tier'], 'judge');
      assert.deepEqual(l['pairwise_fluency/escalation'], ['inconsistent']);
      assert.deepEqual([tiers.screen.pairwise_choice, tiers.screen.position_consistent], ['TIE', false]);
      assert.equal(tiers.judge.model, 'big');
      assert.equal(l['pairwise_fluency/pairwise_choice'], tiers.judge.pairwise_choice);
      // The big judge picks the longer response; f1's two responses are equally long.
      const a = String(l.baseline_model_response).length;
      const b = String(l.response).length;
      assert.equal(tiers.judge.pairwise_choice, a > b ? 'A' : b > a ? 'B' : 'TIE', String(l.id));
    }
  });
});

describe('escalation rules', () => {
  const ok = (columns: Line) => ({ status: 'ok' as const, columns });

  it('parses the rule list and rejects an unknown rule', () => {
    const r = parseEscalation('inconsistent,confidence<0.7,band=2-4');
    assert.deepEqual(r, { ok: true, rule: { failed: false, inconsistent: true, confidenceBelow: 0.7, band: [2, 4] } });
    assert.equal(parseEscalation('band=4-2').ok, false);
  });

  it('escalates low confidence and a position-inconsistent pairwise verdict, never a confident consistent one', () => {
    const rule = { confidenceBelow: 0.7, inconsistent: true, failed: true };
    assert.deepEqual(escalationReasons(ok({ pairwise_choice: 'TIE', confidence: 0.5, position_consistent: false }), rule), ['low-confidence', 'inconsistent']);
    assert.deepEqual(escalationReasons(ok({ pairwise_choice: 'A', confidence: 0.9, position_consistent: true }), rule), []);
    assert.deepEqual(escalationReasons({ status: 'failed', kind: 'timeout', error: 'x', columns: {} }, rule), ['failed']);
  });

  it('sweeps confidence thresholds for pairwise screens', () => {
    const rows = [0.5, 0.6, 0.9, 0.95].map((c, i) => ({
      // Rows below 0.7 were escalated; the others were all audited (100%).
      'm/tiers': { screen: { model: 's', pairwise_choice: 'A', confidence: c }, judge: { model: 'b', pairwise_choice: i === 0 ? 'B' : 'A', confidence: 0.9 }, audit_percent: 100 },
      'm/audit': c >= 0.7,
      'm/human_pairwise_choice': 'A',
    }));
    const r = sweepThresholds(rows, 'm');
    assert.ok(!('error' in r));
    if ('error' in r) return;
    assert.equal(r.by, 'confidence');
    const at = (t: string) => r.points.find((p) => p.rule === t)!;
    assert.equal(at('confidence<0.7').escalation_rate, 0.5);
    assert.equal(at('confidence<0.7').agreement_judge, 1);
    assert.equal(at('confidence<0').agreement_judge, 0.75, 'row 1 (0.5) would keep A where the judge says B');
    assert.equal(at('confidence<0.7').agreement_human, 0.75);
  });
});
