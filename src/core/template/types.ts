// The parsed shape of a `.judge` template, shared by validation, rendering and the editor.
import type { Diagnostic, Span } from '../diagnostics';
import type { LineIndex } from '../text';
import type { VerdictSpec } from '../verdict/types';

export type JudgeKind = 'pointwise' | 'pairwise';

export interface IntRange {
  min: number;
  max: number;
}

/** A pointwise score scale: integers (`scale:`), or any number in the interval (`range:`). */
export interface ScoreScale extends IntRange {
  /** Set by `range:` (e.g. an OpenAI score_model grader): the score may be any number from min to max. */
  continuous?: true;
}

export interface Dimension {
  name: string;
  description: string;
}

/** One criterion of a multi-criterion pointwise template; `weight` as written (0–1, normalised when judged). */
export interface Criterion {
  name: string;
  description: string;
  weight: number;
}

export interface ModelDefaults {
  name?: string;
  temperature?: number;
  max_tokens?: number;
  /** Pairwise position swap; default true. */
  swap: boolean;
  /** A panel of judges: each a model, with an endpoint (base URL or endpoint name) when not the run's. */
  judges?: { model: string; endpoint?: string }[];
  /** Judges that must answer for a panel verdict (default: a strict majority of the panel). */
  min_judges?: number;
  /** `expected`: also record the probability-weighted score from token logprobs. */
  scoring?: 'expected';
}

/** Front matter after zod validation. */
export interface TemplateConfig {
  name: string;
  kind: JudgeKind;
  /** Pointwise only: from `scale` (integers) or `range` (continuous). Absent for a categorical template. */
  scale?: ScoreScale;
  /** Pointwise, categorical verdict: the judge answers one of these labels instead of a score. */
  labels?: string[];
  /** Categorical: the labels that count as a pass (`m/passed`). */
  passing_labels?: string[];
  /** Numeric pointwise: a row passes when its score is at least this (`m/passed`). */
  pass_threshold?: number;
  /** Where an imported template came from and how its source's variables became dataset fields. */
  source?: TemplateSource;
  inputs?: string[];
  model: ModelDefaults;
  /** Multi-criterion pointwise: weighted criteria, each with its own rubric (`## name` under `# Rubric`). */
  criteria?: Criterion[];
  /** Multi-dimension pairwise (HHH): dimensions in priority order. */
  dimensions?: Dimension[];
  /** Multi-dimension pairwise: absolute ranking scale for each response, e.g. 1..7. */
  ranking?: IntRange;
  /** Multi-dimension pairwise: preference degrees, weakest first; first means "about the same". */
  degrees?: string[];
  /** How the judge states its verdict; absent means JSON. */
  verdict?: VerdictSpec;
  /** The body is the prompt exactly as written: no required sections, nothing appended. */
  freeform?: boolean;
  /** The system message, sent verbatim (no placeholders). */
  system?: string;
  /** Pairwise: the fields the position swap exchanges, a[i] with b[i] (default response_a/response_b). */
  pair?: { a: string[]; b: string[] };
  /** Dataset field naming the model that wrote the judged response (self-judging guard). */
  generator_field?: string;
  /**
   * Pairwise, both orders: `consistent` (default) — the orders must agree, else TIE; `votes` — each
   * order's verdict is one vote, a failed order abstains, more votes wins, equal is TIE.
   */
  swap_rule?: SwapRule;
}

export type SwapRule = 'consistent' | 'votes';

export interface TemplateSource {
  /** The tool the template was imported from, e.g. `openai-evals` or `promptfoo`. */
  format: string;
  /** The source's own name for it (a grader name, an assertion path). */
  name?: string;
  /** The source's own metric name when it has one (promptfoo's `metric`, which several assertions may share). */
  metric?: string;
  /** The source's variables → the dataset fields that replace them, e.g. `item.question` → `question`. */
  fields?: Record<string, string>;
}

/** Canonical section keys; `other` is any level-1 heading we do not know. */
export type SectionKey = 'criteria' | 'rubric' | 'evaluation_steps' | 'examples' | 'output_format' | 'system' | 'other';

export interface Section {
  key: SectionKey;
  /** Heading text as written, e.g. "Rating rubric". */
  title: string;
  /** Span of the whole heading line. */
  heading: Span;
  /** 0-based offsets into the whole document. */
  headingStart: number;
  bodyStart: number;
  bodyEnd: number;
}

export interface Placeholder {
  /** Full path as written, e.g. `response`, `this.input`, `examples`. */
  path: string;
  /** First path segment, e.g. `response`; empty for `this`/`.` paths. */
  head: string;
  /** `mustache` for {{x}}, `block` for {{#each x}} and friends (the param). */
  kind: 'mustache' | 'block';
  /** Nested inside a block ({{#each}} etc.): its head is relative to the block context. */
  inBlock: boolean;
  /** Span of the path text inside the braces. */
  span: Span;
  /** 0-based offsets of the path text in the whole document. */
  start: number;
  end: number;
}

export interface RubricPoint {
  score: number;
  /** Short label when written as "5 (Great): ..." or "7 Great: ...", else undefined. */
  label?: string;
  description: string;
  /** Span of the score number. */
  span: Span;
  /** Span of the whole line. */
  lineSpan: Span;
}

export interface FewShotExample {
  /** Span of the ```json fence's content (the expected judge output). */
  span: Span;
  jsonText: string;
  /** Parsed JSON when valid, else undefined (and `example-invalid-json` is reported). */
  value?: unknown;
  jsonError?: string;
}

export interface FrontMatter {
  /** Offsets of the YAML text between the `---` lines. */
  start: number;
  end: number;
  /** Plain data parsed from YAML (before zod). */
  data: unknown;
}

export interface ParsedTemplate {
  text: string;
  index: LineIndex;
  frontMatter: FrontMatter | null;
  /** Valid config, or null when the front matter is missing/invalid. */
  config: TemplateConfig | null;
  /** Offset where the Markdown body starts. */
  bodyStart: number;
  sections: Section[];
  placeholders: Placeholder[];
  /** False when Handlebars could not parse the body (then `placeholders` is empty). */
  handlebarsOk: boolean;
  rubric: RubricPoint[];
  examples: FewShotExample[];
  /** Problems found while parsing (YAML, Handlebars syntax, …). Validation adds the rest. */
  diagnostics: Diagnostic[];
  /** markdown-it's view of the body (code lines, heading levels), kept so checks need not parse it again. */
  structure?: { codeLines: Set<number>; headingLines: Map<number, number> };
}
