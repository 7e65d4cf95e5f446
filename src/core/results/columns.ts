// Every column a results line may carry under `<metric>/`, with who writes it and what it means.
// The engine's result builder refuses a column that is not here (a bug of ours, never a judge's
// choice), and docs/reference/columns.md is generated from this list. Add columns; never rename.

export type ColumnFeature =
  | 'verdict' // every template: the verdict and its provenance
  | 'pairwise' // position swap
  | 'samples' // --samples N
  | 'criteria' // weighted multi-criterion templates
  | 'dimensions' // multi-dimension pairwise templates (HHH)
  | 'expected' // scoring: expected (logprobs)
  | 'panel' // a panel of judges
  | 'tiers' // tiered judging
  | 'batch' // provider Batch API
  | 'failure' // a failed row
  | 'human'; // labels people gave; never written by a judge

export interface ColumnSpec {
  /** The name after `<metric>/`; a trailing `*` stands for a criterion name (`score_*`). */
  name: string;
  feature: ColumnFeature;
  description: string;
}

export const COLUMNS: readonly ColumnSpec[] = [
  { name: 'score', feature: 'verdict', description: 'pointwise verdict: an integer on the scale (weighted criteria: the unrounded weighted mean); null on a failed row' },
  { name: 'label', feature: 'verdict', description: "categorical verdict: one of the template's labels; null on a failed row" },
  { name: 'passed', feature: 'verdict', description: 'passing_labels or pass_threshold: whether the verdict passes; null on a failed row' },
  { name: 'pairwise_choice', feature: 'verdict', description: 'pairwise verdict: A, B or TIE after mapping the swapped pass back; null on a failed row' },
  { name: 'justification', feature: 'verdict', description: "the judge's reasoning for the verdict (text verdicts: the reply before the verdict)" },
  { name: 'confidence', feature: 'verdict', description: "pairwise: the judge's stated confidence (mean of both orders; 0.5 when the orders disagree; null when the format states none); pointwise with samples or a panel: the share that gave the verdict" },
  { name: 'model', feature: 'verdict', description: 'the model that answered, as the endpoint named it (panels: every judge)' },
  { name: 'template_hash', feature: 'verdict', description: 'first 12 hex of sha256 over the template bytes: which template version judged the row' },
  { name: 'extra', feature: 'verdict', description: "reply fields beyond the template's schema, as one object; a judge can never name a column" },
  { name: 'repaired', feature: 'verdict', description: 'true when the verdict came from the one repair request' },
  { name: 'self_judging', feature: 'verdict', description: 'judges whose model also wrote the response (model.generator_field): the self-preference guard' },
  { name: 'position_consistent', feature: 'pairwise', description: 'true when both orders gave the same winner, false when they disagreed, null with one order' },
  { name: 'passes', feature: 'pairwise', description: "each pass: order (AB, BA), winner mapped back, confidence, justification (panels: each judge's passes)" },
  { name: 'samples', feature: 'samples', description: "each sample's verdict, in order" },
  { name: 'score_mean', feature: 'samples', description: 'mean score over the samples (panels: over the judges)' },
  { name: 'score_sd', feature: 'samples', description: 'population standard deviation of the samples’ scores' },
  { name: 'flip_rate', feature: 'samples', description: 'share of samples whose verdict differs from the majority' },
  { name: 'sample_agreement', feature: 'samples', description: 'pairwise and categorical: share of samples that gave the majority verdict' },
  { name: 'score_rounded', feature: 'criteria', description: 'the overall weighted score rounded half away from zero: the integer view calibrate and compare use' },
  { name: 'score_*', feature: 'criteria', description: "one criterion's score (the criterion's name after score_)" },
  { name: 'criteria', feature: 'criteria', description: 'per criterion: score, normalised weight, evidence, justification, improvement' },
  { name: 'degree', feature: 'dimensions', description: 'preference degree of the overall winner' },
  { name: 'ranking_a', feature: 'dimensions', description: 'ranking of response A on the 1–7 scale (mean of the passes)' },
  { name: 'ranking_b', feature: 'dimensions', description: 'ranking of response B on the 1–7 scale (mean of the passes)' },
  { name: 'dimensions', feature: 'dimensions', description: 'per dimension: winner and degree, merged over both orders' },
  { name: 'dimension_agreement', feature: 'dimensions', description: 'share of dimensions whose winner agrees between the two orders' },
  { name: 'rule_violations', feature: 'dimensions', description: 'consistency rules the replies broke, each naming its pass and rule' },
  { name: 'score_expected', feature: 'expected', description: 'probability-weighted score from the score token logprobs; null when the endpoint gave none' },
  { name: 'judges', feature: 'panel', description: "each judge's verdict, confidence, position consistency and error kind" },
  { name: 'panel_agreement', feature: 'panel', description: 'share of the configured panel that gave the verdict' },
  { name: 'panel_majority', feature: 'panel', description: 'pairwise panels: whether a strict majority agreed (else the verdict is TIE)' },
  { name: 'tier', feature: 'tiers', description: 'which tier decided the row: screen or judge' },
  { name: 'escalation', feature: 'tiers', description: 'why the row went to the big judge: failed, low-confidence, inconsistent, band' },
  { name: 'audit', feature: 'tiers', description: 'true when the row was sent to the big judge as a random audit' },
  { name: 'tiers', feature: 'tiers', description: "both tiers' verdicts and the audit percent" },
  { name: 'batch_id', feature: 'batch', description: 'the provider batch that answered the row' },
  { name: 'error', feature: 'failure', description: 'why the row failed, in words' },
  { name: 'error_kind', feature: 'failure', description: 'why the row failed, as a stable code (docs/reference/error-kinds.md)' },
  { name: 'raw_replies', feature: 'failure', description: 'the replies that did not validate, as received' },
  { name: 'human_rating', feature: 'human', description: "a person's score (Vertex AI's column); read by calibrate" },
  { name: 'human_label', feature: 'human', description: "a person's label for a categorical verdict (a nominal scale in calibrate)" },
  { name: 'human_pairwise_choice', feature: 'human', description: "a person's pairwise choice (A, B, TIE; Vertex's BASELINE, CANDIDATE, SAME)" },
  { name: 'human_*', feature: 'human', description: 'other human labels (per criterion, per annotator); kept from the input, never written by a judge' },
];

const exact = new Set(COLUMNS.filter((c) => !c.name.endsWith('*')).map((c) => c.name));
const prefixes = COLUMNS.filter((c) => c.name.endsWith('*')).map((c) => c.name.slice(0, -1));

/** Whether `name` (without the `metric/` prefix) is a registered column. */
export function isRegisteredColumn(name: string): boolean {
  return exact.has(name) || prefixes.some((p) => name.startsWith(p) && name.length > p.length);
}

/** Columns a judge may write: everything but the human labels. */
export function isJudgeColumn(name: string): boolean {
  return isRegisteredColumn(name) && !name.startsWith('human_');
}
