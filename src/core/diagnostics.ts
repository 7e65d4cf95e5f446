// Diagnostics are values: a stable code, a 1-based span and a message a user can act on.

export type Severity = 'error' | 'warning' | 'info';

/** What a code means: its severity (the usual one; `also` names the exception) and one line for the reference. */
export interface DiagnosticInfo {
  severity: Severity;
  meaning: string;
  /** When the same code is also reported at another severity. */
  also?: string;
}

/**
 * Every stable code users filter on, one line each: add a code at the end, never rename one.
 * docs/reference/diagnostics.md is generated from this table (scripts/reference.mjs) and a test
 * keeps the two equal; another test fails when the code emits a code that is not here.
 */
export const DIAGNOSTICS = {
  'front-matter-missing': { severity: 'error', meaning: 'the file does not start with YAML front matter between `---` lines' },
  'front-matter-invalid': { severity: 'error', meaning: 'the front matter is not valid YAML, or a key has a wrong value (name, kind, scale, inputs, model, verdict…)' },
  'missing-section': { severity: 'error', meaning: 'a required section is missing: `# Criteria`, `# Rubric` or `# Evaluation steps` (a quick fix inserts it)' },
  'duplicate-section': { severity: 'error', meaning: 'a section, a criterion rubric or the system message is given twice' },
  'empty-section': { severity: 'warning', meaning: 'a section heading has nothing under it' },
  'missing-placeholder': { severity: 'error', meaning: 'the judge never sees a field it needs: `{{response}}`, or both responses of a pair', also: 'warning for a missing `{{prompt}}`' },
  'unknown-placeholder': { severity: 'error', meaning: 'a placeholder names a field that is not in `inputs` (a quick fix offers the nearest name)' },
  'unused-input': { severity: 'warning', meaning: 'a field listed in `inputs` is never used in the prompt' },
  'handlebars-syntax': { severity: 'error', meaning: 'the body is not valid Handlebars: an unclosed `{{#each}}`, comment or tag' },
  'rubric-gap': { severity: 'error', meaning: 'the rubric leaves a score of the scale undescribed (a quick fix adds the lines)' },
  'rubric-duplicate': { severity: 'error', meaning: 'the rubric describes the same score twice' },
  'rubric-out-of-scale': { severity: 'error', meaning: 'a rubric line gives a score outside the scale (or the ranking)' },
  'example-invalid-json': { severity: 'error', meaning: "a few-shot example's expected reply is not JSON", also: 'warning when it is JSON but not a valid reply' },
  'example-out-of-scale': { severity: 'error', meaning: "a few-shot example's score or winner is outside what the judge may answer" },
  'unknown-dimension': { severity: 'error', meaning: 'a multi-dimension template names a dimension it does not declare' },
  'ranking-level-missing': { severity: 'error', meaning: "a multi-dimension template's ranking rubric leaves a level undescribed" },
  'empty-rubric-level': { severity: 'warning', meaning: 'a rubric line has a score and no description (Generate Rubric can write one)' },
  'rubric-vague': { severity: 'info', meaning: 'a rubric level says only "good" or "bad" instead of what a response of that score does' },
  'undelimited-input': { severity: 'warning', meaning: 'the judged response is not set off by tags, so text inside it can pose as instructions (a quick fix wraps it)' },
  'verdict-before-reasoning': { severity: 'warning', meaning: 'the reply format or an example puts the verdict before the reasoning (a quick fix swaps them)' },
  'examples-unbalanced': { severity: 'info', meaning: 'the few-shot examples all give the same verdict, or leave most of the scale out' },
  'verdict-missing': { severity: 'error', meaning: 'a free-form template does not say how its verdict is read (`verdict:`)' },
  'verdict-not-asked': { severity: 'warning', meaning: 'a free-form prompt never asks for the verdict in the declared format' },
  'verdict-labels-in-prompt': { severity: 'warning', meaning: 'the prompt itself holds text the verdict reader reads as a verdict (a label list judges quote back) and `verdict.match` is not set' },
  'verdict-pattern-invalid': { severity: 'error', meaning: 'a `verdict.pattern` does not compile, has bad flags, or lacks its named group' },
  'verdict-pattern-unsafe': { severity: 'error', meaning: 'a `verdict.pattern` is longer or larger than the linear-time engine allows (2,000 characters, 500 compiled instructions)' },
  'criterion-rubric-missing': { severity: 'error', meaning: 'a declared criterion has no `## <criterion>` rubric under `# Rubric`' },
  'criterion-weight-range': { severity: 'error', meaning: "a criterion's weight is below 0 or above 1" },
  'criterion-weights-sum': { severity: 'warning', meaning: 'the criteria weights do not sum to 1 (they are normalised)', also: 'error when every weight is 0' },
  'criterion-rubric-gap': { severity: 'error', meaning: "a criterion's rubric leaves a score of the scale undescribed" },
  'example-criterion-missing': { severity: 'error', meaning: 'a few-shot reply has no entry for a declared criterion' },
  'unknown-criterion': { severity: 'error', meaning: 'a `##` rubric subsection names no declared criterion' },
  'placeholder-before-rubric': { severity: 'info', meaning: "a row value comes before the fixed rubric, so providers' prompt caches cannot reuse it" },
  'verdict-pattern-unsupported': { severity: 'error', meaning: 'a `verdict.pattern` uses what a linear-time engine cannot run (a backreference, lookahead or lookbehind)' },
  'example-label-unknown': { severity: 'error', meaning: "a few-shot example's label is not one of the template's `labels`" },
} as const satisfies Record<string, DiagnosticInfo>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

/** The codes in the order they were added. */
export const DIAGNOSTIC_CODES = Object.keys(DIAGNOSTICS) as readonly DiagnosticCode[];

/** 1-based lines and columns; the end column points just past the last character. */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface Diagnostic extends Span {
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  /** Machine-readable facts for quick fixes, e.g. {suggestion: 'response'} or {score: 3}. */
  data?: Record<string, unknown>;
}

/** The design.md `validate --json` element. */
export interface FileDiagnostic extends Diagnostic {
  file: string;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return a.line - b.line || a.column - b.column || a.code.localeCompare(b.code);
}
