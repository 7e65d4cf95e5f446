// Diagnostics are values: a stable code, a 1-based span and a message a user can act on.

export type Severity = 'error' | 'warning' | 'info';

/** Stable codes from design.md. Add new ones at the end; never rename. */
export const DIAGNOSTIC_CODES = [
  'front-matter-missing',
  'front-matter-invalid',
  'missing-section',
  'duplicate-section',
  'empty-section',
  'missing-placeholder',
  'unknown-placeholder',
  'unused-input',
  'handlebars-syntax',
  'rubric-gap',
  'rubric-duplicate',
  'rubric-out-of-scale',
  'example-invalid-json',
  'example-out-of-scale',
  // multi-dimension (HHH) templates
  'unknown-dimension',
  'ranking-level-missing',
  // judge-prompt pitfalls (lints)
  'empty-rubric-level',
  'rubric-vague',
  'undelimited-input',
  'verdict-before-reasoning',
  'examples-unbalanced',
  // verdict formats and free-form templates
  'verdict-missing',
  'verdict-not-asked',
  'verdict-pattern-invalid',
  'verdict-pattern-unsafe',
  // multi-criterion pointwise templates (weighted criteria, a rubric each)
  'criterion-rubric-missing',
  'criterion-weight-range',
  'criterion-weights-sum',
  'criterion-rubric-gap',
  'example-criterion-missing',
  'unknown-criterion',
  'placeholder-before-rubric',
  // a verdict pattern the linear-time engine cannot run (backreference, lookaround)
  'verdict-pattern-unsupported',
  // categorical verdicts (`labels:`)
  'example-label-unknown',
] as const;

export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

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
