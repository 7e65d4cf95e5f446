// The align report from the parts' verdicts: figures per template and part, each candidate's
// paired held-out change with its interval and McNemar's p, the overfit flag, costs and `best`;
// and the candidate's final text with the held-out figures in its provenance.
import type { CallMeter } from './budget';
import { candidateSpecs, type Built, type CandidatePlan } from './candidates';
import { ALIGN_METHOD, bestOf, comparePaired, isOverfit, partFigures } from './figures';
import type { PartRun } from './parts';
import { withAlignment, type Alignment } from './provenance';
import type { AlignOptions } from './run';
import type { Split } from './split';
import type { AlignReport, CandidateReport, CandidateStatus, NotRun, Verdict } from './types';

export interface ReportInput {
  o: AlignOptions;
  split: Split;
  runs: ReadonlyMap<string, PartRun>;
  plans: readonly CandidatePlan[];
  built: Built | undefined;
  notRun: readonly NotRun[];
  meter: CallMeter;
  interrupted: boolean;
  outDir: string;
}

const EMPTY = new Map<string, Verdict>();

export function assembleReport(r: ReportInput): AlignReport {
  const { o, split } = r;
  const kind = o.judge.config.kind;
  const shown = o.shown ?? ((f: string) => f);
  const run = (id: string, part: 'train' | 'heldout') => r.runs.get(`${id}.${part}`);
  const verdicts = (id: string, part: 'train' | 'heldout') => run(id, part)?.verdicts ?? EMPTY;
  const cost = (id: string) => {
    const parts = [run(id, 'train'), run(id, 'heldout')].filter((p): p is PartRun => p !== undefined);
    return { calls: parts.reduce((s, p) => s + p.stats.calls, 0), tokens: parts.reduce((s, p) => s + p.stats.usage.totalTokens, 0) };
  };
  const figures = (id: string, part: 'train' | 'heldout') => (run(id, part) ? partFigures(kind, part === 'train' ? split.train : split.heldout, verdicts(id, part)) : null);

  const candidates: CandidateReport[] = r.plans.map((plan) => {
    const held = run(plan.id, 'heldout');
    const train = run(plan.id, 'train');
    const status: CandidateStatus = !held || held.stop !== 'done' ? (r.meter.exhausted ? 'budget' : 'interrupted') : 'done';
    const paired = held ? comparePaired(split.heldout, verdicts('baseline', 'heldout'), held.verdicts, true) : undefined;
    const trainPaired = train && train.stop === 'done' ? comparePaired(split.train, verdicts('baseline', 'train'), train.verdicts, false) : undefined;
    const notes: string[] = [...plan.warnings];
    if (status !== 'done') notes.push(status === 'budget' ? 'not judged on every held-out row: the budget ran out' : 'not judged on every held-out row: the run stopped');
    if (!trainPaired) notes.push('no train figures (not judged on train), so overfit is not known');
    const heldFig = figures(plan.id, 'heldout');
    if (heldFig && heldFig.failed > 0) notes.push(`${heldFig.failed} held-out row(s) failed and are left out of the figures`);
    const wrong = held ? split.heldout.filter((row) => held.verdicts.get(row.key)?.label !== row.label).map((row) => row.key) : [];
    const trainGain = trainPaired?.delta ?? null;
    return {
      id: plan.id,
      kind: plan.kind,
      file: shown(`${r.outDir}/${plan.id}.judge`),
      examples: plan.examples.map((e) => e.row.key),
      drafted_justifications: plan.examples.filter((e) => e.drafted).map((e) => e.row.key),
      train: figures(plan.id, 'train'),
      heldout: heldFig,
      delta: paired && paired.delta !== null ? { accuracy: paired.delta, ci: paired.ci, n: paired.n } : null,
      mcnemar_p: paired?.mcnemarP ?? null,
      train_gain: trainGain,
      overfit: paired ? isOverfit(trainGain, paired) : null,
      ...cost(plan.id),
      status,
      heldout_wrong: wrong,
      notes,
    };
  });
  const baseline = { train: figures('baseline', 'train'), heldout: figures('baseline', 'heldout'), ...cost('baseline') };
  const author = r.built?.author ?? { model: o.authorModel ?? o.settings.model, calls: 0, tokens: 0 };
  const judgeCalls = [...r.runs.values()].reduce((s, p) => s + p.stats.calls, 0);
  const judgeTokens = [...r.runs.values()].reduce((s, p) => s + p.stats.usage.totalTokens, 0);
  const baseTrain = run('baseline', 'train');
  return {
    metric: o.judge.metric,
    kind,
    template: shown(o.templateFile),
    template_hash: o.judge.templateHash,
    model: o.panel ? o.panel.members.map((m) => m.label).join(', ') : o.settings.model,
    split: { seed: o.seed, train: split.train.length, heldout: split.heldout.length, share: o.share },
    baseline,
    candidates,
    refused: everyCandidate(r, candidates.map((c) => c.id)),
    not_run: [...r.notRun],
    author,
    budget: o.budget !== undefined ? { limit: o.budget, used: r.meter.used } : null,
    total: { calls: judgeCalls + author.calls, tokens: judgeTokens + author.tokens },
    best: bestOf(candidates),
    train_disagreements: baseTrain ? split.train.filter((row) => { const v = baseTrain.verdicts.get(row.key)?.label; return v !== undefined && v !== row.label; }).length : 0,
    skipped: {
      unlabelled: o.loaded.unlabelled,
      invalid_label: o.loaded.invalidLabel,
      duplicate_key: o.loaded.duplicateKey,
      unreadable: o.loaded.unreadable,
    },
    method: ALIGN_METHOD,
    interrupted: r.interrupted,
  };
}

/** The candidate text with its provenance; with the held-out figures once they are known. */
export function finalText(plan: CandidatePlan, c: CandidateReport | undefined, report: AlignReport | undefined, o: AlignOptions, split: Split | undefined): string {
  const sizes = report ? { train: report.split.train, heldout: report.split.heldout } : { train: split?.train.length ?? 0, heldout: split?.heldout.length ?? 0 };
  const drafted = plan.examples.filter((e) => e.drafted);
  const alignment: Alignment = {
    candidate: plan.id,
    kind: plan.kind,
    seed: o.seed,
    split: sizes,
    examples: plan.examples.map((e) => e.row.key),
    drafted_justifications: drafted.map((e) => e.row.key),
    ...(drafted.length > 0 || plan.clarification ? { author_model: o.authorModel ?? o.settings.model } : {}),
    date: (o.now ?? (() => new Date()))().toISOString().slice(0, 10),
    ...(c?.heldout && c.delta
      ? {
          heldout: {
            n: c.delta.n,
            accuracy: c.heldout.accuracy,
            baseline_accuracy: report?.baseline.heldout?.accuracy ?? null,
            delta: c.delta.accuracy,
            ci: c.delta.ci,
            mcnemar_p: c.mcnemar_p,
            overfit: c.overfit,
          },
        }
      : {}),
  };
  return withAlignment(plan.text, o.judge.templateHash, alignment);
}

/** Every candidate offered is listed: judged, refused with why, or not drafted because the run stopped first. */
function everyCandidate(r: ReportInput, judged: readonly string[]): AlignReport['refused'] {
  const refused = [...(r.built?.refused ?? [])];
  const listed = new Set([...judged, ...refused.map((x) => x.id)]);
  const why = r.built
    ? 'it was drafted but could not be judged (its text does not validate)'
    : r.interrupted
      ? 'the run stopped before the candidates were drafted'
      : 'not drafted: the current template was not judged on both parts (see "not judged")';
  for (const s of candidateSpecs(r.o.maxExamples, r.o.candidates)) if (!listed.has(s.id)) refused.push({ id: s.id, kind: s.kind, reason: why });
  return refused;
}
