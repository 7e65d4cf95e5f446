// Compiler-style lines (`file:line:col severity code message`) that terminals and problem matchers link.
import type { FileDiagnostic } from '../core/diagnostics';

export function formatDiagnostic(d: FileDiagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`;
}

export function summary(diags: FileDiagnostic[], files: number): string {
  const count = (s: string) => diags.filter((d) => d.severity === s).length;
  return `${files} file${files === 1 ? '' : 's'} checked: ${count('error')} error(s), ${count('warning')} warning(s)`;
}
