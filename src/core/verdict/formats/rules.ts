// What one verdict format must say about itself. The registry (registry.ts) holds one of these per
// name in VERDICT_FORMAT_NAMES, so a new name does not compile until every question here is answered.
import type { Scale, TextVerdict, VerdictKind, VerdictSpec } from '../types';

/** What a reader is built from: the template's spec and scale, and the shared value check. */
export interface ReadContext {
  spec: VerdictSpec;
  kind: VerdictKind;
  /** The template's scale, else 1–5. */
  range: Scale;
  /** A pointwise template with `labels`: the verdict is one of them. */
  categorical: boolean;
  /** The verdict text as written → the score, winner or label it means (through `values`), checked. */
  mapped(text: string, justification: string): TextVerdict;
}

/** What the rule in words is built from (the preview, the hover, the repair request). */
export interface DescribeContext {
  /** Undefined for a template with no `verdict` (JSON with the standard fields). */
  spec: VerdictSpec | undefined;
  kind: VerdictKind;
  /** The template's scale as declared (undefined when it has none). */
  scale: Scale | undefined;
  labels: readonly string[] | undefined;
  /** ` mapped by k → v, …` when the spec has `values`, else ''. */
  values: string;
}

/** A front-matter finding about the verdict, at a key path under the front matter. */
export interface VerdictFinding {
  path: (string | number)[];
  code: 'verdict-pattern-invalid' | 'verdict-pattern-unsafe' | 'verdict-pattern-unsupported';
  message: string;
}

export interface VerdictFormatRules {
  /**
   * The `verdict` keys this format takes besides `format`; front matter refuses the others.
   * `pattern` covers `flags` too and, when taken, is required.
   */
  takes: { pattern: boolean; values: boolean; fields: boolean; gate: boolean; match: boolean; structured: boolean };
  /** A reader for one template (anything costly, like compiling a pattern, happens here, once). */
  reader(ctx: ReadContext): (reply: string) => TextVerdict;
  /** Every verdict text the reader would find in `text`, in order (the lint over a prompt's label lists). */
  texts(spec: VerdictSpec, kind: VerdictKind, text: string): string[];
  /** The parsing rule in words, before the match and passing-label notes. */
  rule(ctx: DescribeContext): string;
  /** The line of the generated output instruction that says how to write the verdict. */
  instruction(spec: VerdictSpec, kind: VerdictKind, range: Scale, labels: readonly string[] | undefined): string;
  /**
   * Whether a prompt that writes its own output format asks for this format, and the shape to ask
   * for when it does not; null when the prompt cannot be checked (a custom pattern against prose).
   */
  prompt: { asks(prompt: string, kind: VerdictKind): boolean; shape(kind: VerdictKind): string } | null;
  /** Said after "by default the first one counts" when the format's `first` is not the first in the reply. */
  firstRuleNote(kind: VerdictKind): string;
  /** A check of the spec itself (a pattern that must compile), else undefined. */
  check(spec: VerdictSpec, kind: VerdictKind): VerdictFinding | undefined;
}
