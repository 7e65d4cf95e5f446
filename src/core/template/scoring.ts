// What a pointwise verdict is: an integer on `scale`, any number in `range` (a continuous score,
// as OpenAI's score_model graders give), or one of `labels` (a categorical verdict, as OpenAI's
// label_model graders give). `pass_threshold` and `passing_labels` add a pass/fail view of the
// verdict (`m/passed`). The front-matter schema calls refineScoring for the rules between keys.
import { z } from 'zod';

/** A label is shown to the judge and written to results: printable text on one line. */
const LABEL = /^[^\u0000-\u001f\u007f]{1,200}$/;

export const labelList = z
  .array(z.string().regex(LABEL, 'a label is text of 1 to 200 characters on one line'))
  .min(1, 'list at least one label');

export const realRange = z
  .union([
    z.tuple([z.number(), z.number()]).transform(([min, max]) => ({ min, max })),
    z.object({ min: z.number(), max: z.number() }).strict(),
  ])
  .refine((r) => r.min < r.max, { message: 'the first number must be smaller than the second, e.g. [0, 1]' });

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const sourceSchema = z
  .object({
    format: z.string().min(1),
    name: z.string().optional(),
    // The source's own metric name (promptfoo's `metric`), when several templates share it.
    metric: z.string().optional(),
    // The source's variable (e.g. `item.question`) → the dataset field its value is read from.
    fields: z.record(z.string().min(1), z.string().regex(FIELD, 'a dataset field name: letters, digits and _')).optional(),
  })
  .strict();

interface ScoringKeys {
  kind: 'pointwise' | 'pairwise';
  scale?: { min: number; max: number } | undefined;
  range?: { min: number; max: number } | undefined;
  labels?: string[] | undefined;
  passing_labels?: string[] | undefined;
  pass_threshold?: number | undefined;
  criteria?: unknown;
  dimensions?: unknown;
  verdict?: { format: string; fields?: { score?: string; winner?: string } | undefined; values?: unknown; gate?: unknown } | undefined;
  model?: { scoring?: string | undefined; judges?: unknown } | undefined;
}

export function refineScoring(fm: ScoringKeys, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (fm.kind === 'pairwise') {
    for (const key of ['range', 'labels', 'passing_labels', 'pass_threshold'] as const) {
      if (fm[key] !== undefined) issue([key], `\`${key}\` belongs to pointwise templates (a pairwise verdict is A, B or TIE); remove it or set \`kind: pointwise\``);
    }
    return;
  }
  if (fm.scale && fm.range) issue(['range'], '`scale` (integer scores) and `range` (any number in the interval) say the same thing twice; keep one');
  if (fm.labels) refineLabels(fm, issue);
  else if (fm.passing_labels) issue(['passing_labels'], '`passing_labels` needs `labels`: list the labels the judge may answer');
  if (fm.pass_threshold !== undefined) {
    const scale = fm.scale ?? fm.range;
    if (fm.labels) issue(['pass_threshold'], 'a categorical verdict passes by its label: use `passing_labels` instead of `pass_threshold`');
    else if (scale && (fm.pass_threshold < scale.min || fm.pass_threshold > scale.max)) {
      issue(['pass_threshold'], `\`pass_threshold\` ${fm.pass_threshold} is outside the scale ${scale.min}–${scale.max}; a row passes when its score is at least the threshold`);
    }
  }
  if (fm.range && fm.criteria) issue(['range'], 'weighted criteria are scored on an integer `scale`; use `scale` with `criteria`');
  if (fm.range && fm.model?.scoring) issue(['model', 'scoring'], '`scoring: expected` weighs the integer score tokens of a `scale`; a continuous `range` has none');
}

function refineLabels(fm: ScoringKeys, issue: (path: (string | number)[], message: string) => void): void {
  const labels = fm.labels ?? [];
  if (labels.length < 2) issue(['labels'], 'a categorical verdict needs at least two labels to choose from');
  const seen = new Set<string>();
  labels.forEach((l, i) => {
    if (seen.has(l)) issue(['labels', i], `label "${l}" is listed twice`);
    seen.add(l);
  });
  if (fm.scale || fm.range) issue([fm.scale ? 'scale' : 'range'], 'a categorical template answers one of its `labels`, not a score; remove the scale');
  if (fm.criteria) issue(['labels'], 'weighted criteria are scored on a `scale`; a template has either `criteria` or `labels`');
  if (fm.dimensions) issue(['labels'], '`labels` belongs to pointwise templates');
  if (fm.model?.scoring) issue(['model', 'scoring'], '`scoring: expected` weighs score tokens; a categorical verdict has labels');
  const v = fm.verdict;
  // Renamed fields are fine (OpenAI's graders reply {steps, result}); a score, a winner or mapped values are not a label.
  if (v && (v.format !== 'json' || v.values !== undefined || v.gate !== undefined || v.fields?.score !== undefined || v.fields?.winner !== undefined)) {
    issue(['verdict'], 'a categorical template replies in JSON ({"justification", "label"}, or other field names with `fields: {label: …, justification: …}`); remove `verdict` or set `verdict: json`');
  }
  fm.passing_labels?.forEach((l, i) => {
    if (!seen.has(l)) issue(['passing_labels', i], `"${l}" is not one of the labels (${labels.map((x) => JSON.stringify(x)).join(', ')})`);
  });
}
