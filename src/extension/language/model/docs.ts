// What completion and hover say about front-matter keys and sections (plain Markdown we wrote).
import type { JudgeKind, SectionKey } from '../../../core/template';

export interface KeyDoc {
  /** One-line summary for completion details. */
  summary: string;
  /** Longer explanation (Markdown). */
  doc: string;
  /** Only meaningful for this kind of template. */
  kind?: JudgeKind;
  /** Text inserted after `key: ` by completion, when there is an obvious start. */
  snippet?: string;
}

export const TOP_LEVEL_KEYS: Record<string, KeyDoc> = {
  name: {
    summary: 'Metric name (required)',
    doc: 'The metric this template computes, in lower case letters, digits and `_` (starting with a letter). Result columns are named after it, e.g. `helpfulness/score`, and human labels are read from `helpfulness/human_rating`.',
  },
  kind: {
    summary: 'pointwise or pairwise (required)',
    doc: '`pointwise` rates one response on the `scale`; `pairwise` compares two responses and answers `A`, `B` or `TIE`.',
  },
  description: { summary: 'What the metric measures', doc: 'A sentence for people reading the template; it is not sent to the judge.' },
  scale: {
    summary: 'Score range (pointwise)',
    doc: 'The integer scores the judge may give, as `[1, 5]` or `{min: 1, max: 5}`. Use `[0, 1]` for pass/fail. The rubric should describe every score in the range.',
    kind: 'pointwise',
    snippet: '[1, 5]',
  },
  range: {
    summary: 'Continuous score range (pointwise)',
    doc: 'Instead of an integer `scale`: the judge may give any number from min to max, e.g. `[0, 1]` (as OpenAI score_model graders do). The score is written to `<metric>/score`.',
    kind: 'pointwise',
    snippet: '[0, 1]',
  },
  labels: {
    summary: 'Categorical verdict: the labels the judge may answer (pointwise)',
    doc: 'Instead of a score: the judge answers exactly one of these labels, written to `<metric>/label`. Calibration reads human labels from `<metric>/human_label` and treats the labels as a nominal scale.',
    kind: 'pointwise',
    snippet: '[correct, incorrect]',
  },
  passing_labels: {
    summary: 'Labels that count as a pass',
    doc: 'With `labels`: the labels that pass. Each row gets `<metric>/passed` (true/false), and calibration adds a pass/fail view.',
    kind: 'pointwise',
  },
  pass_threshold: {
    summary: 'Score that counts as a pass',
    doc: 'With a `scale` or `range`: a row passes when its score is at least this number; each row gets `<metric>/passed`.',
    kind: 'pointwise',
  },
  source: {
    summary: 'Where an imported template came from',
    doc: 'Written by `judge-studio import`: the source format, its name for the grader, and `fields` — how the source\'s variables (e.g. `item.question`) map to dataset fields. The preview shows the mapping.',
  },
  inputs: {
    summary: 'Dataset fields the template uses',
    doc: 'Extra dataset fields the body may use as placeholders, besides the standard ones (`prompt`, `response`, …). A declared input that no placeholder uses is reported.',
    snippet: '[prompt, response]',
  },
  model: {
    summary: 'Judge model defaults',
    doc: 'Defaults for the judge call: `name`, `temperature`, `max_tokens`, and for pairwise templates `swap` (on by default). Command-line flags and settings override them.',
  },
  criteria: {
    summary: 'Weighted criteria, a rubric each (pointwise)',
    doc: 'For multi-criterion pointwise templates: a list of `{name, description, weight}`. Each criterion has its own rubric, a `## <name>` subsection of `# Rubric`, and the judge scores each one with evidence, a justification and one improvement. The overall score `<metric>/score` is the weighted mean (weights normalised to sum to 1); `<metric>/score_rounded` rounds it half away from zero.',
    kind: 'pointwise',
  },
  dimensions: {
    summary: 'Named dimensions, in priority order (pairwise)',
    doc: 'For multi-dimension pairwise templates: a list of `{name, description}`, highest priority first. Level-2 headings under `# Criteria` must name a declared dimension.',
    kind: 'pairwise',
  },
  ranking: {
    summary: 'Absolute ranking range (pairwise)',
    doc: 'For multi-dimension pairwise templates: the range each response is ranked on, e.g. `[1, 7]`. The rubric describes each level.',
    kind: 'pairwise',
    snippet: '[1, 7]',
  },
  degrees: {
    summary: 'Preference degrees, weakest first (pairwise)',
    doc: 'For multi-dimension pairwise templates: how much better the preferred response is, weakest first; the first means "about the same".',
    kind: 'pairwise',
  },
  verdict: {
    summary: 'How the verdict is read: json (default), tagged, prometheus or regex',
    doc: '`tagged` reads FastChat\'s `[[N]]` (else `[N]`) score or `[[A]]`/`[[B]]`/`[[C]]` (C = tie); `prometheus` reads Prometheus 2\'s `Feedback: … [RESULT] N` (absolute) or `[RESULT] A`/`B` (relative); `{format: regex, pattern: "…(?<score>…)"}` reads a named group. The text before the verdict is the justification; no structured output is requested for these formats. `match: first | last | unique` chooses among several verdicts in one reply (`unique`: all must be the same, else the reply has no verdict).',
    snippet: 'tagged',
  },
  freeform: {
    summary: 'The body is the prompt exactly as written',
    doc: 'No required sections and nothing appended: the body is sent as written (minus the file\'s last line break). Declare a `verdict` and tell the judge that format in the prompt.',
    snippet: 'true',
  },
  system: { summary: 'System message, sent verbatim', doc: 'Plain text (no placeholders), sent exactly as written; use it or a `# System` section, not both.' },
  pair: {
    summary: 'Fields the position swap exchanges',
    kind: 'pairwise',
    doc: 'Pairwise templates whose answers are not `response_a`/`response_b`: `pair: {a: [answer_a_1, answer_a_2], b: [answer_b_1, answer_b_2]}` swaps a[i] with b[i] in pass 2.',
  },
  swap_rule: {
    summary: 'How the two orders combine (pairwise): consistent (default) or votes',
    kind: 'pairwise',
    doc: '`consistent`: the orders must agree, else `TIE`. `votes`: each order\'s verdict is one vote, an order with no readable verdict abstains (and stays in `passes`), more votes wins, equal is `TIE` (JudgeBench\'s rule). `calibrate --swap-rule` re-reads results under either rule.',
    snippet: 'votes',
  },
};

export const MODEL_KEYS: Record<string, KeyDoc> = {
  name: { summary: 'Judge model', doc: 'The model the judge calls go to, e.g. `gpt-4o-mini`, unless the run names another.' },
  temperature: { summary: 'Sampling temperature, 0–2', doc: 'Use `0` for judges: the same input should get the same verdict.', snippet: '0' },
  max_tokens: { summary: 'Reply length limit', doc: 'The most tokens the judge may write; leave room for the justification before the verdict.', snippet: '400' },
  swap: {
    summary: 'Position swap (pairwise, default true)',
    doc: 'Judge each pair twice, the second time with A and B exchanged, and keep a winner only when both passes agree; otherwise the verdict is `TIE` with `position_consistent: false`.',
    kind: 'pairwise',
    snippet: 'true',
  },
};

/** Values offered after `key: `. */
export const KEY_VALUES: Record<string, { value: string; doc: string }[]> = {
  kind: [
    { value: 'pointwise', doc: 'Rate one response on a score scale.' },
    { value: 'pairwise', doc: 'Compare two responses: A, B or TIE.' },
  ],
  scale: [
    { value: '[1, 5]', doc: 'Five-point scale.' },
    { value: '[1, 10]', doc: 'Ten-point scale.' },
    { value: '[0, 1]', doc: 'Pass/fail.' },
  ],
  swap: [
    { value: 'true', doc: 'Judge both orders and reconcile them (default).' },
    { value: 'false', doc: 'Judge the original order only.' },
  ],
  temperature: [{ value: '0', doc: 'Deterministic judging.' }],
  swap_rule: [
    { value: 'consistent', doc: 'The two orders must agree, else TIE (default).' },
    { value: 'votes', doc: 'Each order is one vote; a failed order abstains; equal votes are TIE.' },
  ],
};

export const SECTION_DOCS: Record<Exclude<SectionKey, 'other'>, string> = {
  system: 'Optional. Becomes the system message; everything else in the body is the user message.',
  criteria: 'Required. What the judge looks for and what matters most.',
  rubric: 'Required. One line per score (`- 5: …`), or for pairwise the meaning of each verdict.',
  evaluation_steps: 'Required. The steps the judge follows; ask for the justification before the verdict.',
  examples: 'Optional. Few-shot examples: an input and the expected judge reply as a ```json block.',
  output_format: 'Optional. When absent, the reply-format instruction is appended for you; the preview shows exactly what is sent.',
};
