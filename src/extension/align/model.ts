// The align view from `align-report.json`, as pure data (unit-tested in node). The report is a
// file on disk like any other: it is checked with a schema of the fields the view uses, and a file
// that does not fit is shown as an error, never drawn half.
import { z } from 'zod';
import type { AlignView, PartView } from '../../protocol/align';

const figure = z.number().nullable();
const part = z
  .object({ n: z.number().int().nonnegative(), failed: z.number().int().nonnegative(), accuracy: figure, balanced_accuracy: figure, cohen_kappa: figure, quadratic_weighted_kappa: figure.optional() })
  .nullable();
const count = z.number().int().nonnegative();

export const reportSchema = z.object({
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise']),
  template: z.string(),
  template_hash: z.string(),
  model: z.string(),
  split: z.object({ seed: z.number().int(), train: count, heldout: count }),
  baseline: z.object({ train: part, heldout: part, calls: count, tokens: count }),
  candidates: z.array(
    z.object({
      id: z.string().regex(/^[a-z][a-z0-9-]{0,40}$/),
      kind: z.enum(['examples', 'rubric', 'combined']),
      examples: z.array(z.string()),
      drafted_justifications: z.array(z.string()),
      train: part,
      heldout: part,
      delta: z.object({ accuracy: z.number(), ci: z.tuple([z.number(), z.number()]).nullable(), n: count }).nullable(),
      mcnemar_p: figure,
      train_gain: figure,
      overfit: z.boolean().nullable(),
      calls: count,
      tokens: count,
      status: z.enum(['done', 'budget', 'interrupted']),
      heldout_wrong: z.array(z.string().regex(/^[0-9a-f]{16}$/)),
      notes: z.array(z.string()),
    }),
  ),
  refused: z.array(z.object({ id: z.string(), reason: z.string() })),
  not_run: z.array(z.object({ id: z.string(), part: z.enum(['train', 'heldout']), reason: z.string() })),
  author: z.object({ model: z.string(), calls: count, tokens: count }),
  budget: z.object({ limit: count, used: count }).nullable(),
  total: z.object({ calls: count, tokens: count }),
  best: z.string().nullable(),
  train_disagreements: count,
  method: z.string(),
  interrupted: z.boolean(),
});
export type ParsedReport = z.infer<typeof reportSchema>;

export type ReportOutcome = { ok: true; report: ParsedReport } | { ok: false; error: string };

export function parseReport(text: string): ReportOutcome {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'it is not JSON' };
  }
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `it is not an align report (${issue ? `${issue.path.join('.') || 'report'}: ${issue.message}` : 'invalid'}); run Align Judge with Labels again` };
  }
  return { ok: true, report: parsed.data };
}

function partView(p: z.infer<typeof part>, kind: 'pointwise' | 'pairwise'): PartView | null {
  if (!p) return null;
  return { n: p.n, failed: p.failed, accuracy: p.accuracy, balancedAccuracy: p.balanced_accuracy, kappa: kind === 'pointwise' ? (p.quadratic_weighted_kappa ?? null) : p.cohen_kappa };
}

export function buildAlignView(r: ParsedReport, shown: { template: string; dir: string }, accepted: string | null): AlignView {
  return {
    metric: r.metric,
    kind: r.kind,
    kappaName: r.kind === 'pointwise' ? 'quadratic-weighted κ' : "Cohen's κ",
    template: shown.template,
    dir: shown.dir,
    seed: r.split.seed,
    train: r.split.train,
    heldout: r.split.heldout,
    baseline: { train: partView(r.baseline.train, r.kind), heldout: partView(r.baseline.heldout, r.kind) },
    trainDisagreements: r.train_disagreements,
    candidates: r.candidates.map((c) => ({
      id: c.id,
      kind: c.kind,
      examples: c.examples.length,
      drafted: c.drafted_justifications.length,
      train: partView(c.train, r.kind),
      heldout: partView(c.heldout, r.kind),
      delta: c.delta?.accuracy ?? null,
      ci: c.delta?.ci ?? null,
      mcnemarP: c.mcnemar_p,
      trainGain: c.train_gain,
      overfit: c.overfit,
      status: c.status,
      wrong: c.heldout_wrong.length,
      calls: c.calls,
      tokens: c.tokens,
      notes: c.notes,
      best: c.id === r.best,
    })),
    refused: r.refused.map((x) => ({ id: x.id, reason: x.reason })),
    notRun: r.not_run.map((x) => ({ id: x.id, part: x.part, reason: x.reason })),
    best: r.candidates.some((c) => c.id === r.best) ? r.best : null,
    calls: r.total.calls,
    tokens: r.total.tokens,
    authorModel: r.author.model,
    authorCalls: r.author.calls,
    budget: r.budget,
    interrupted: r.interrupted,
    method: r.method,
    accepted: accepted !== null && r.candidates.some((c) => c.id === accepted) ? accepted : null,
  };
}
