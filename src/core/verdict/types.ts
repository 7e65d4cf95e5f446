// How a template's judge states its verdict. JSON is the default; the other formats read a verdict
// out of free text, so a judge prompt written for another tool can be run unchanged.

/**
 * Every verdict format, in the order users read them in messages. The union, the front-matter enum
 * and the registry (formats/registry.ts, which must have one entry per name) all derive from it.
 * `tagged`: FastChat's `[[N]]` (pointwise) or `[[A]]`/`[[B]]`/`[[C]]` (pairwise, C = tie).
 * `prometheus`: Prometheus 2's `Feedback: … [RESULT] N` (absolute) or `[RESULT] A|B` (relative).
 */
export const VERDICT_FORMAT_NAMES = ['json', 'tagged', 'regex', 'prometheus'] as const;
export type VerdictFormat = (typeof VERDICT_FORMAT_NAMES)[number];

/**
 * Which verdict a text reply gives when it writes more than one (regex, tagged, prometheus):
 * `first` (the default), `last`, or `unique` — every verdict in the read window must be the same
 * text, else the reply has no verdict (Arena-Hard-Auto's and JudgeBench's rule).
 */
export const VERDICT_MATCHES = ['first', 'last', 'unique'] as const;
export type VerdictMatch = (typeof VERDICT_MATCHES)[number];

export interface VerdictSpec {
  format: VerdictFormat;
  /** `regex` only: a JavaScript regular expression with a named group `score` or `winner`. */
  pattern?: string;
  /** `regex` only: any of `i`, `m`, `s`. */
  flags?: string;
  /**
   * `json` only: the reply's field names when they are not `score`/`winner`/`label`/`justification`
   * (e.g. promptfoo's `pass`, `reason`). `steps` names a field holding the reasoning as a list of
   * `{description, conclusion}` steps (OpenAI's model graders), kept as the justification.
   */
  fields?: { score?: string; winner?: string; label?: string; justification?: string; steps?: string };
  /** `json` and `regex`: the verdict as written → the score or winner it means, e.g. `{Y: 1, N: 0}`. */
  values?: Record<string, number | string>;
  /**
   * `json`, pointwise: the verdict stands only when the reply's numeric `field` is at least `min`;
   * below it the score is `otherwise` (promptfoo's llm-rubric `threshold`: pass only when score >= threshold).
   */
  gate?: { field: string; min: number; otherwise: number };
  /** `regex`, `tagged` and `prometheus`: which of several verdicts in one reply counts (default `first`). */
  match?: VerdictMatch;
  /**
   * `json` only: the reply is asked for with structured output, its JSON schema being the template's
   * reply under the `fields` names (OpenAI's graders' `{steps, result}`), so the prompt need not ask.
   */
  structured?: boolean;
}

export type VerdictKind = 'pointwise' | 'pairwise';

export interface Scale {
  min: number;
  max: number;
  /** Any number from min to max (a template's `range:`), not only integers. */
  continuous?: boolean;
}

/** A verdict read from free text; `justification` is the reply text before the verdict. */
export type TextVerdict =
  | { ok: true; justification: string; score: number }
  | { ok: true; justification: string; winner: 'A' | 'B' | 'TIE' }
  | { ok: true; justification: string; label: string }
  | { ok: false; error: string; /** set when the reply gave two different verdicts under `match: unique` */ kind?: 'ambiguous-verdict' };

/** A format read by the verdict module (anything but plain JSON with the standard fields). */
export function isTextFormat(spec: VerdictSpec | undefined): spec is VerdictSpec {
  return spec !== undefined && (spec.format !== 'json' || spec.fields !== undefined || spec.values !== undefined || spec.gate !== undefined || spec.structured !== undefined);
}
